import type { Sha256Reply, Sha256Request } from './sha256-messages';

/**
 * The SHA-256 of a file as lowercase hex, computed in a Web Worker (sha256.worker.ts) that reads
 * it slice by slice: the duplicate check before an upload. One worker serves the whole page and
 * hashes one file at a time. Rejects where workers or WebAssembly are missing; callers then
 * upload without the check.
 */

interface Pending {
  resolve: (sha256: string) => void;
  reject: (error: Error) => void;
  onProgress: ((hashed: number) => void) | undefined;
}

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

function hashingWorker(): Worker {
  if (worker !== null) return worker;
  const created = new Worker(new URL('./sha256.worker.ts', import.meta.url), {
    type: 'module',
    name: 'sha256',
  });
  created.onmessage = (event: MessageEvent<Sha256Reply>) => {
    const reply = event.data;
    const waiting = pending.get(reply.id);
    if (waiting === undefined) return;
    if (reply.kind === 'progress') {
      waiting.onProgress?.(reply.hashed);
      return;
    }
    pending.delete(reply.id);
    if (reply.kind === 'done') waiting.resolve(reply.sha256);
    else waiting.reject(new Error(reply.message));
  };
  created.onerror = (event) => {
    event.preventDefault();
    // A worker that cannot start fails everything it was asked; the next call tries anew.
    const error = new Error(event.message || 'The hashing worker failed');
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
    created.terminate();
    if (worker === created) worker = null;
  };
  worker = created;
  return created;
}

export function hashFile(file: Blob, onProgress?: (hashed: number) => void): Promise<string> {
  if (typeof Worker === 'undefined') {
    return Promise.reject(new Error('Web Workers are not available'));
  }
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject, onProgress });
    const request: Sha256Request = { id, blob: file };
    try {
      hashingWorker().postMessage(request);
    } catch (error) {
      pending.delete(id);
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
