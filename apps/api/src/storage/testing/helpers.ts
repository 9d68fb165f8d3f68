import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';

/** A temp directory per test, removed afterwards even when the test fails. */
export async function makeTempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'raccolta-storage-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Emits `data` in small chunks across event-loop turns, so concurrent writers interleave. */
export function slowStream(data: Buffer, chunkSize = 4096): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let offset = 0; offset < data.length; offset += chunkSize) {
      await new Promise((resolve) => setImmediate(resolve));
      yield data.subarray(offset, offset + chunkSize);
    }
  }
  return Readable.from(chunks());
}

/** Emits `before` bytes, then fails the way an aborted upload does. */
export function failingStream(before: Buffer, error: Error): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(before);
        return;
      }
      setImmediate(() => this.destroy(error));
    },
  });
}
