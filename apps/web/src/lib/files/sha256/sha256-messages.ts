/** What the page and the hashing worker (sha256.worker.ts) send each other. */
export interface Sha256Request {
  id: number;
  blob: Blob;
}

export type Sha256Reply =
  | { id: number; kind: 'progress'; hashed: number }
  | { id: number; kind: 'done'; sha256: string }
  | { id: number; kind: 'error'; message: string };
