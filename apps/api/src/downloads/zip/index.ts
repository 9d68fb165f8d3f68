export { safeEntryNames, shouldCompress } from './entry-names.js';
export { ARCHIVE_END_BOUND, entryBytesBound, zipStream } from './zip-writer.js';
export type { ZipEntry, ZipOptions } from './zip-writer.js';
