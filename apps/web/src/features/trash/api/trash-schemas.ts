// Imported only dynamically, like the other features' response schemas.
export {
  trashListResponseSchema,
  trashPurgeResponseSchema,
  trashRestoreResponseSchema,
} from '@raccolta/contracts';
