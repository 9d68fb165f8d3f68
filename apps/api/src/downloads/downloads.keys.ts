import { encryptedKey } from '../storage/encryption.js';

/**
 * Where a part's zip is stored; the same key on every run, so a retry replaces, never adds.
 * Encrypted (`.enc`) for a team whose files are (the premium plan).
 */
export function partKey(downloadId: string, partNumber: number, encrypted = false): string {
  const key = `downloads/${downloadId}/part-${partNumber}.zip`;
  return encrypted ? encryptedKey(key) : key;
}

/** The dedupe key of a download's build job: one build at a time per download. */
export function buildJobKey(downloadId: string): string {
  return `downloads.build:${downloadId}`;
}
