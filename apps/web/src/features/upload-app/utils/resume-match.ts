import type { InterruptedUpload } from './upload-storage';

/** What a fingerprint (upload-storage.ts, fingerprintOf) says about the file it was made from. */
export interface FingerprintParts {
  scope: string;
  size: number;
  lastModified: number;
  type: string;
  name: string;
}

/** `scope|size|lastModified|type|name`; the name, last, may hold `|` itself. */
export function parseFingerprint(fingerprint: string): FingerprintParts | null {
  const parts = fingerprint.split('|');
  if (parts.length < 5) return null;
  const [scope = '', size, lastModified, type = ''] = parts;
  const numbers = [Number(size), Number(lastModified)] as const;
  if (!numbers.every(Number.isFinite)) return null;
  return {
    scope,
    size: numbers[0],
    lastModified: numbers[1],
    type,
    name: parts.slice(4).join('|'),
  };
}

/** How a chosen file differs from the interrupted upload it was taken for. */
export type Difference = 'name' | 'size' | 'lastModified';

/** A chosen file that is not the interrupted one it looks like: it is not uploaded unasked. */
export interface Mismatch {
  file: File;
  /** The interrupted upload it was taken for; null when none has its name (several remain). */
  upload: InterruptedUpload | null;
  differences: Difference[];
}

export interface MatchedFiles {
  /** Files that are an interrupted upload: resumed under that upload's fingerprint. */
  resume: { file: File; fingerprint: string }[];
  /** Files that look like an interrupted upload but are not that file. */
  mismatched: Mismatch[];
  /** Files unrelated to any interrupted upload: new uploads. */
  fresh: File[];
}

function differencesOf(file: File, stored: FingerprintParts): Difference[] {
  const differences: Difference[] = [];
  if (file.name !== stored.name) differences.push('name');
  if (file.size !== stored.size) differences.push('size');
  if (file.lastModified !== stored.lastModified) differences.push('lastModified');
  return differences;
}

/**
 * Sorts chosen files against the uploads an earlier visit left unfinished, by what tus-js-client's
 * own fingerprint compares: name, size and last change (not the type, which browsers report
 * differently for the same file). A file equal in all three resumes that upload. One that shares
 * only the name is not that file (the same photo edited, or another with the same name): it is
 * set aside, never uploaded unasked beside the one still waiting. `again` is true when the files
 * were chosen to resume ("Choose the same files again"): then any file that is not an interrupted
 * one is a wrong pick, set aside too, and paired with the only upload left when just one is.
 */
export function matchChosenFiles(
  files: readonly File[],
  interrupted: readonly InterruptedUpload[],
  again: boolean,
): MatchedFiles {
  const candidates = interrupted
    .map((upload) => ({ upload, stored: parseFingerprint(upload.fingerprint) }))
    .filter(
      (candidate): candidate is { upload: InterruptedUpload; stored: FingerprintParts } =>
        candidate.stored !== null,
    );
  const taken = new Set<InterruptedUpload>();
  const result: MatchedFiles = { resume: [], mismatched: [], fresh: [] };
  const unmatched: File[] = [];

  for (const file of files) {
    const same = candidates.find(
      ({ upload, stored }) => !taken.has(upload) && differencesOf(file, stored).length === 0,
    );
    if (same === undefined) {
      unmatched.push(file);
      continue;
    }
    taken.add(same.upload);
    result.resume.push({ file, fingerprint: same.upload.fingerprint });
  }

  for (const file of unmatched) {
    // The same file twice in one choice: it resumes once.
    if (candidates.some(({ stored }) => differencesOf(file, stored).length === 0)) continue;
    const left = candidates.filter(({ upload }) => !taken.has(upload));
    const named = left.find(({ stored }) => stored.name === file.name);
    const only = again && left.length === 1 ? left[0] : undefined;
    const like = named ?? only;
    if (like !== undefined) {
      result.mismatched.push({
        file,
        upload: like.upload,
        differences: differencesOf(file, like.stored),
      });
    } else if (again && left.length > 0) {
      result.mismatched.push({ file, upload: null, differences: ['name'] });
    } else {
      result.fresh.push(file);
    }
  }
  return result;
}
