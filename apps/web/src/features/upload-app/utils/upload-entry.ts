import type { HttpStack, UrlStorage } from 'tus-js-client';
import type { UploadFailure } from './upload-failure';

/** The shapes and defaults of the tus upload queue (tus-queue.ts). */

/**
 * queued: waiting for a free slot (or for the connection); uploading: bytes on their way;
 * paused: stopped by a lost connection, resumed when it is back; done; failed: see `failure`.
 */
export type UploadStatus = 'queued' | 'uploading' | 'paused' | 'done' | 'failed';

export interface UploadEntry {
  id: number;
  name: string;
  size: number;
  status: UploadStatus;
  /** Bytes the server has or is receiving (rendered in steps of half a percent). */
  bytesSent: number;
  /** Continues an upload started earlier (another visit, or before a failure). */
  resumed: boolean;
  failure: UploadFailure | null;
  /** The new file's id, once done. */
  fileId: string | null;
}

export interface TusQueueOptions {
  /** Absolute URL of POST …/collections/{collectionId}/uploads. */
  endpoint: string;
  /** uploadScope(user, collection): the start of every fingerprint of this queue. */
  scope: string;
  /** `{TokenType} {AccessToken}`, asked for before every request: tokens expire mid-upload. */
  authorization: () => Promise<string>;
  onUploaded: (fileId: string) => void;
  /** The URL storage gained or lost entries (the interrupted list may have changed). */
  onStorageChange?: () => void;
  online?: boolean;
  /** Files uploaded at the same time. */
  parallel?: number;
  /** Bytes per PATCH: a dropped connection loses at most the chunk on its way. */
  chunkSize?: number;
  retryDelays?: number[];
  /** Injected by tests; the browser's XMLHttpRequest and localStorage otherwise. */
  httpStack?: HttpStack;
  urlStorage?: UrlStorage;
}

export const DEFAULT_PARALLEL = 2;
export const DEFAULT_CHUNK_SIZE = 16 * 1024 * 1024;
export const DEFAULT_RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000];
export const TERMINATE_RETRY_DELAYS = [0, 1000, 3000];

export const isActive = (status: UploadStatus) =>
  status === 'queued' || status === 'uploading' || status === 'paused';
