import { addAbortSignal, PassThrough, type Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { ZipEntry, ZipOptions } from '../src/downloads/zip/index.js';

/**
 * yazl 3 with the same interface as our writer (`src/downloads/zip/zip-writer.ts`), as the build
 * would have used it, for download.bench.ts: entries pulled lazily from an (async) iterable, one
 * source open at a time (`addReadStreamLazy`, each entry added once the previous source ended),
 * Zip64 when forced (`forceZip64Format`), stored or deflated per entry (`compress`), and the
 * source closed at once when the archive stream is destroyed (yazl leaves a piped source open).
 * Kept for the comparison only: docs/decisions.md says why the build keeps its own writer.
 */

/** A regular file, rw-r--r-- (Unix `st_mode`, in the external attributes). */
const FILE_MODE = 0o100644;

// yazl's records (index.js): local header without extra fields, data descriptor (Zip64: 8-byte
// sizes), central record with the extended timestamp and, for Zip64, all three 8-byte fields.
const LOCAL_HEADER_SIZE = 30;
const DESCRIPTOR_SIZE = 16;
const DESCRIPTOR_ZIP64_SIZE = 24;
const CENTRAL_HEADER_SIZE = 46;
const TIME_EXTRA_SIZE = 9;
const ZIP64_CENTRAL_EXTRA_SIZE = 28;
const ZIP64_END_SIZE = 56;
const ZIP64_LOCATOR_SIZE = 20;
const END_SIZE = 22;

/** Bytes of the end records (incl. Zip64 end record + locator, always counted). */
export const ARCHIVE_END_BOUND = ZIP64_END_SIZE + ZIP64_LOCATOR_SIZE + END_SIZE;

/**
 * Raw deflate's worst case. zlib (level 6, memLevel 8) falls back to stored blocks for
 * incompressible data, 5 header bytes per block of at least ~16 KiB of input (that is the
 * `sourceLen >> 12` + `sourceLen >> 14` of its deflateBound); counted here as a block every
 * 4 KiB, plus the final empty block and bit padding.
 */
function deflateBound(size: number): number {
  return size + 5 * Math.ceil(size / 4096) + 64;
}

/**
 * The archive bytes an entry adds (local header + data + descriptor + central directory record),
 * counted the way yazl writes them, for planning parts of at most N bytes before writing
 * anything. Exact for a stored entry written as Zip64 (the bigger descriptor and the Zip64 extra
 * field); an upper bound otherwise, deflate's worst-case expansion included.
 */
export function entryBytesBound(entry: { name: string; size: number; compress: boolean }): number {
  const nameBytes = Buffer.byteLength(entry.name, 'utf8');
  const data = entry.compress ? deflateBound(entry.size) : entry.size;
  return (
    LOCAL_HEADER_SIZE +
    nameBytes +
    data +
    DESCRIPTOR_ZIP64_SIZE +
    CENTRAL_HEADER_SIZE +
    nameBytes +
    TIME_EXTRA_SIZE +
    ZIP64_CENTRAL_EXTRA_SIZE
  );
}

/** The exact bytes of a stored entry without Zip64 (offset and size below 0xFFFFFFFF). */
export function storedEntryBytes(entry: { name: string; size: number }): number {
  const nameBytes = Buffer.byteLength(entry.name, 'utf8');
  return (
    LOCAL_HEADER_SIZE +
    nameBytes +
    entry.size +
    DESCRIPTOR_SIZE +
    CENTRAL_HEADER_SIZE +
    nameBytes +
    TIME_EXTRA_SIZE
  );
}

/** A failure of one entry; the message names it. */
class ZipEntryError extends Error {
  constructor(entryName: unknown, problem: string, options?: ErrorOptions) {
    const label = typeof entryName === 'string' ? JSON.stringify(entryName) : '(unnamed)';
    super(`zip entry ${label}: ${problem}`, options);
    this.name = 'ZipEntryError';
  }
}

function check(entry: ZipEntry): void {
  const name: unknown = entry.name;
  if (typeof name !== 'string' || name === '') throw new ZipEntryError(name, 'the name is empty');
  if (Buffer.byteLength(name, 'utf8') > 0xffff)
    throw new ZipEntryError(name, 'the name is longer than 65535 bytes');
  if (!Number.isSafeInteger(entry.size) || entry.size < 0)
    throw new ZipEntryError(name, `invalid size ${String(entry.size)}`);
  if (!(entry.mtime instanceof Date) || Number.isNaN(entry.mtime.getTime()))
    throw new ZipEntryError(name, 'invalid mtime');
  if (typeof entry.open !== 'function') throw new ZipEntryError(name, 'no open()');
}

const ignore = () => undefined;

/** Destroys a stream we are done with, whatever it emits afterwards. */
function discard(stream: Readable): void {
  stream.on('error', ignore);
  stream.destroy();
}

/**
 * An entry pulled after the stream was destroyed: its source may already be open (an iterator
 * that opens each file before yielding it, to skip missing ones), so it is opened and closed.
 */
async function closeUnwritten(entry: ZipEntry): Promise<void> {
  try {
    discard(await entry.open());
  } catch {
    // Nothing was open.
  }
}

/** A Readable of the whole archive; pulls entries lazily (Iterable or AsyncIterable) and respects backpressure. */
export function zipStream(
  entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>,
  opts: ZipOptions = {},
): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream;
  if (!(output instanceof PassThrough)) throw new Error('yazl: the output is not a PassThrough');
  const forceZip64 = opts.forceZip64 === true;
  let source: Readable | undefined;
  /** The entry being written, to name it in yazl's errors. */
  let current: unknown;
  let closed = false;

  const fail = (err: unknown) => {
    if (!output.destroyed) output.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  // The consumer is gone (or the archive failed): close the source at once, not at garbage
  // collection, and pull nothing more.
  const destroy = output._destroy.bind(output);
  output._destroy = (error, callback) => {
    closed = true;
    if (source) discard(source);
    destroy(error, callback);
  };
  // yazl fails the whole archive (its 'error') when a source yields more or fewer bytes than `size`.
  zip.on('error', (err: unknown) => {
    const problem = err instanceof Error ? err.message : String(err);
    fail(new ZipEntryError(current, problem, { cause: err }));
  });
  if (opts.signal) addAbortSignal(opts.signal, output);

  /** Hands one entry to yazl; resolves once its source has been read to the end. */
  const write = (entry: ZipEntry) =>
    new Promise<void>((resolve, reject) => {
      const named = (err: unknown) => {
        const problem = err instanceof Error ? err.message : String(err);
        return new ZipEntryError(entry.name, problem, { cause: err });
      };
      zip.addReadStreamLazy(
        entry.name,
        {
          size: entry.size,
          mtime: entry.mtime,
          mode: FILE_MODE,
          compress: entry.compress,
          forceZip64Format: forceZip64,
        },
        (deliver) => {
          entry.open().then(
            (opened) => {
              if (closed) {
                discard(opened);
                resolve();
                return;
              }
              source = opened;
              opened.once('end', () => resolve());
              opened.once('error', (err) => reject(named(err)));
              opened.once('close', () => {
                if (!opened.readableEnded)
                  reject(named(new Error('the stream closed before its end')));
              });
              current = entry.name;
              deliver(null, opened);
            },
            (err: unknown) => reject(named(err)),
          );
        },
      );
    });

  const pump = async () => {
    try {
      for await (const entry of entries) {
        if (closed) {
          await closeUnwritten(entry);
          return;
        }
        check(entry);
        await write(entry);
        source = undefined;
      }
      if (!closed) zip.end({ forceZip64Format: forceZip64, comment: '' });
    } catch (err) {
      fail(err);
    }
  };
  // Nothing is pulled (or opened) before the archive is first read.
  const read = output._read.bind(output);
  let started = false;
  output._read = (size: number) => {
    if (!started) {
      started = true;
      void pump();
    }
    read(size);
  };
  return output;
}
