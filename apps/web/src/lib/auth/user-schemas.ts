// Imported only dynamically: the current user's schema, and Zod with it, arrive with the first
// call for the signed-in user (while it is under way), never for a visitor.
export { meResponseSchema } from '@raccolta/contracts';
