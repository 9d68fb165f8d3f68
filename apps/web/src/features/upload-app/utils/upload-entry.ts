import type { HttpStack, UrlStorage } from 'tus-js-client';
import type { UploadFailure } from './upload-failure';

/** The shapes and defaults of the tus upload queue (tus-queue.ts). */

/**
 * queued: waiting for a free slot (or for the connection); hashing: its SHA-256 computed and
 * looked up in the collection; duplicate: the collection holds the same bytes already, so it
 * was skipped (see `duplicateOf`; uploadAnyway sends it all the same); uploading: bytes on their
 * way; paused: stopped by a lost connection, resumed when it is back; done; failed: see
 * `failure`.
 */
export type UploadStatus =
  'queued' | 'hashing' | 'duplicate' | 'uploading' | 'paused' | 'done' | 'failed';

/** The file of the collection that holds the same bytes as a skipped one. */
export interface DuplicateOf {
  fileId: string;
  name: string;
}

/** A file's digest, and the collection's file with the same bytes, if any. */
export interface DuplicateCheck {
  sha256: string;
  match: DuplicateOf | null;
}

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
  /** Set while skipped as a duplicate. */
  duplicateOf: DuplicateOf | null;
}

export interface TusQueueOptions {
  /** Absolute URL of POST …/collections/{collectionId}/uploads. */
  endpoint: string;
  /** uploadScope(user, collection): the start of every fingerprint of this queue. */
  scope: string;
  /** `{TokenType} {AccessToken}`, asked for before every request: tokens expire mid-upload. */
  authorization: () => Promise<string>;
  onUploaded: (fileId: string) => void;
  /**
   * More tus metadata for each upload, asked for when it starts (a guest's name and e-mail,
   * which the guest may change between files).
   */
  metadata?: () => Record<string, string>;
  /**
   * Hashes a file and asks the collection whether it holds the same bytes, before its upload
   * starts; the digest goes with the upload, which the server checks. Without it, or when it
   * fails (no worker, no answer), the file is uploaded unchecked.
   */
  checkDuplicate?: (file: File) => Promise<DuplicateCheck>;
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
  status === 'queued' || status === 'hashing' || status === 'uploading' || status === 'paused';
