import { randomBytes } from 'node:crypto';
import { EncryptionKeyError, isEncryptedKey, rotatedKey } from '../storage/encryption.js';
import { StorageNotFoundError, type StorageEncryption } from '../storage/storage.js';
import {
  filesByBatch,
  moveFileObjects,
  type FileObjectsRow,
  type MoveFileObjectsDeps,
} from './move-file-objects.js';

export type ReencryptDeps = MoveFileObjectsDeps;

export interface ReencryptOutcome {
  /** The id of the key the rewritten objects are now enciphered with. */
  keyId: string;
  /** Files whose objects were rewritten with the current key. */
  rewritten: number;
  /** Files whose renditions were being made: left for another run. */
  waiting: number;
  /** Files with an object whose key is not configured (neither current nor previous). */
  unreadable: string[];
}

/** The encrypted objects of a row that another key than the current one enciphered. */
async function staleKeys(
  encryption: StorageEncryption,
  row: FileObjectsRow,
): Promise<string[] | null> {
  const stale: string[] = [];
  for (const key of [row.storage_key, row.thumbnail_key, row.preview_key]) {
    if (key === null || !isEncryptedKey(key)) continue;
    try {
      if ((await encryption.keyIdOf(key)) !== encryption.currentKeyId) stale.push(key);
    } catch (error) {
      // Gone with its file meanwhile: nothing to rewrite.
      if (error instanceof StorageNotFoundError) continue;
      if (error instanceof EncryptionKeyError) return null;
      throw error;
    }
  }
  return stale;
}

/**
 * After a key rotation (docs/decisions.md, "At-rest encryption"): every stored file's encrypted
 * original and renditions that an earlier key enciphered are copied under a new name
 * (`rotatedKey`) with the current key, the row is pointed at the copies, and the earlier objects
 * are deleted once every link handed out for them has expired (SIGNED_URL_TTL_SECONDS, and a
 * minute more). Never in place: a reader may be between an object's header and its bytes. A file
 * whose renditions are being made waits for a later run. Idempotent: a row moves only from the
 * keys that were copied, and copies a row does not point to are removed. Runs may overlap: each
 * names its copies after itself (`runId`), so no run writes over an object another run has
 * already pointed a file at; of two runs copying one file, the first to move the row keeps its
 * copies and the other removes its own.
 */
export async function reencryptFiles(
  deps: ReencryptDeps,
  runId = randomBytes(4).toString('hex'),
): Promise<ReencryptOutcome> {
  const { db, storage } = deps;
  const { encryption } = storage;
  if (!encryption) throw new Error('reencryptFiles needs the storage behind its encryption layer');
  const keyId = encryption.currentKeyId;
  const outcome: ReencryptOutcome = { keyId, rewritten: 0, waiting: 0, unreadable: [] };
  for await (const row of filesByBatch(db)) {
    const stale = await staleKeys(encryption, row);
    if (stale === null) {
      outcome.unreadable.push(row.id);
      continue;
    }
    if (stale.length === 0) continue;
    if (row.rendition_status === 'pending') {
      outcome.waiting++;
      continue;
    }
    const copies = new Map(stale.map((key) => [key, rotatedKey(key, keyId, runId)]));
    if (await moveFileObjects(deps, row, copies)) outcome.rewritten++;
  }
  return outcome;
}
