// Imported only dynamically: the schemas, and Zod with them, arrive when the form is first
// checked or sent, not with the landing page.
export { subscribeFormSchema, subscribeResponseSchema } from '@raccolta/contracts';
