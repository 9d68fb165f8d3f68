// Imported only dynamically: the downloads are followed on every page of the team app, and their
// schemas (with Zod) arrive with the first call, never on a visitor's first page.
export {
  createDownloadResponseSchema,
  downloadLinkResponseSchema,
  downloadSchema,
} from '@raccolta/contracts';
