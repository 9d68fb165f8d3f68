import { addAbortSignal, Readable, type Transform, type Writable } from 'node:stream';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

/**
 * A streaming zip writer (PKWARE APPNOTE 6.3): every entry is written as it is read, with its CRC
 * and sizes in a data descriptor after the data (general purpose bit 3), so memory stays flat:
 * a few chunks in flight (source chunks are passed on as they are, never copied; entries of up to
 * 16 KiB to deflate are deflated whole), plus the central directory (~100 bytes an entry) kept
 * until the end. Zip64 is used per entry and for the end records only where sizes, offsets or
 * the entry count need it (or always with `forceZip64`).
 */

export interface ZipEntry {
  /** Entry path inside the archive, already made safe by safeEntryNames (forward slashes). */
  name: string;
  /** The exact uncompressed size the source will yield; a source yielding more or fewer bytes makes the stream fail with an error (never a wrong archive). */
  size: number;
  mtime: Date;
  /** true: DEFLATE (raw, zlib.createDeflateRaw, level 6); false: STORE. */
  compress: boolean;
  /** Opened only when the entry is written, so at most one source is open at a time. */
  open: () => Promise<Readable>;
}

export interface ZipOptions {
  signal?: AbortSignal;
  forceZip64?: boolean;
}

const SIG_LOCAL = 0x04034b50;
const SIG_DESCRIPTOR = 0x08074b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_ZIP64_END = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_END = 0x06054b50;

/** Bit 3: CRC and sizes in the data descriptor; bit 11: the name is UTF-8. */
const FLAGS = (1 << 3) | (1 << 11);
const VERSION_NEEDED = 20;
const VERSION_NEEDED_ZIP64 = 45;
/** Upper byte 3: Unix, so the external attributes carry a file mode; lower byte: APPNOTE 4.5. */
const VERSION_MADE_BY = (3 << 8) | VERSION_NEEDED_ZIP64;
/** A regular file, rw-r--r--, in the upper 16 bits (Unix `st_mode`). */
const EXTERNAL_ATTRIBUTES = (0o100644 << 16) >>> 0;
const METHOD_STORE = 0;
const METHOD_DEFLATE = 8;
const DEFLATE_LEVEL = 6;

const UINT16_MAX = 0xffff;
const UINT32_MAX = 0xffffffff;
const TWO_POW_32 = 0x1_0000_0000;

/**
 * An entry whose data may reach this many bytes is written as Zip64 (local extra field, 8-byte
 * descriptor sizes); the margin keeps the decision clear of the 0xFFFFFFFF placeholder.
 */
const ZIP64_ENTRY_THRESHOLD = UINT32_MAX - 0x10000;

const LOCAL_HEADER_SIZE = 30;
const CENTRAL_HEADER_SIZE = 46;
const DESCRIPTOR_SIZE = 16;
const DESCRIPTOR_ZIP64_SIZE = 24;
/** Extended timestamp 0x5455 with only the modification time: id, length, flags, mtime. */
const TIME_EXTRA_SIZE = 9;
/** Zip64 0x0001 in a local header: id, length, uncompressed and compressed size (zero). */
const ZIP64_LOCAL_EXTRA_SIZE = 20;
/** Zip64 0x0001 in a central record at most: id, length, the two sizes and the offset. */
const ZIP64_CENTRAL_EXTRA_MAX_SIZE = 28;
const ZIP64_END_SIZE = 56;
const ZIP64_LOCATOR_SIZE = 20;
const END_SIZE = 22;

/** Bytes of the end records (incl. Zip64 end record + locator, always counted). */
export const ARCHIVE_END_BOUND = ZIP64_END_SIZE + ZIP64_LOCATOR_SIZE + END_SIZE;

/** The archive stream buffers about this much before it stops pulling from the sources. */
const OUTPUT_HIGH_WATER_MARK = 256 * 1024;
/** zlib's output chunks for deflated entries. */
const DEFLATE_CHUNK_SIZE = 64 * 1024;

const DOS_MIN = Date.UTC(1980, 0, 1, 0, 0, 0);
const DOS_MAX = Date.UTC(2107, 11, 31, 23, 59, 58);
const INT32_MIN = -0x8000_0000;
const INT32_MAX = 0x7fff_ffff;

/**
 * Raw deflate's worst case. zlib (level 6, memLevel 8) falls back to stored blocks for
 * incompressible data, 5 header bytes per block of at least ~16 KiB of input (that is the
 * `sourceLen >> 12` + `sourceLen >> 14` of its deflateBound); counted here as a block every
 * 4 KiB, plus the final empty block and bit padding.
 */
function deflateBound(size: number): number {
  return size + 5 * Math.ceil(size / 4096) + 64;
}

function usesZip64(size: number, compress: boolean, forceZip64: boolean): boolean {
  return forceZip64 || (compress ? deflateBound(size) : size) >= ZIP64_ENTRY_THRESHOLD;
}

/** An upper bound of the archive bytes an entry adds (local header + data + descriptor + central directory record), for planning parts of at most N bytes before writing anything. Deflate's worst-case expansion included. */
export function entryBytesBound(entry: { name: string; size: number; compress: boolean }): number {
  const nameBytes = Buffer.byteLength(entry.name, 'utf8');
  const data = entry.compress ? deflateBound(entry.size) : entry.size;
  return (
    LOCAL_HEADER_SIZE +
    nameBytes +
    TIME_EXTRA_SIZE +
    ZIP64_LOCAL_EXTRA_SIZE +
    data +
    DESCRIPTOR_ZIP64_SIZE +
    CENTRAL_HEADER_SIZE +
    nameBytes +
    TIME_EXTRA_SIZE +
    ZIP64_CENTRAL_EXTRA_MAX_SIZE
  );
}

function writeUInt64LE(buf: Buffer, value: number, offset: number): number {
  buf.writeUInt32LE(value % TWO_POW_32, offset);
  buf.writeUInt32LE(Math.floor(value / TWO_POW_32), offset + 4);
  return offset + 8;
}

/** DOS date and time from the UTC fields, clamped to what they can hold (1980–2107). */
function dosDateTime(mtime: Date): { date: number; time: number } {
  const d = new Date(Math.min(Math.max(mtime.getTime(), DOS_MIN), DOS_MAX));
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/** Unix seconds as the extended timestamp's signed 32-bit field can hold them (1901–2038). */
function unixSeconds(mtime: Date): number {
  return Math.min(Math.max(Math.floor(mtime.getTime() / 1000), INT32_MIN), INT32_MAX);
}

function writeTimeExtra(buf: Buffer, offset: number, seconds: number): number {
  buf.writeUInt16LE(0x5455, offset);
  buf.writeUInt16LE(5, offset + 2);
  buf.writeUInt8(1, offset + 4); // only the modification time follows
  buf.writeInt32LE(seconds, offset + 5);
  return offset + TIME_EXTRA_SIZE;
}

interface PreparedEntry {
  /** The entry's name as given, for error messages. */
  entryName: string;
  name: Buffer;
  size: number;
  method: number;
  zip64: boolean;
  dosDate: number;
  dosTime: number;
  seconds: number;
}

/** A failure of one entry; the message names it. */
class ZipEntryError extends Error {
  constructor(entryName: unknown, problem: string, options?: ErrorOptions) {
    const label = typeof entryName === 'string' ? JSON.stringify(entryName) : '(unnamed)';
    super(`zip entry ${label}: ${problem}`, options);
    this.name = 'ZipEntryError';
  }
}

function prepare(entry: ZipEntry, forceZip64: boolean): PreparedEntry {
  const entryName: unknown = entry.name;
  if (typeof entryName !== 'string' || entryName === '')
    throw new ZipEntryError(entryName, 'the name is empty');
  const name = Buffer.from(entryName, 'utf8');
  if (name.length > UINT16_MAX)
    throw new ZipEntryError(entryName, `the name is longer than ${UINT16_MAX} bytes`);
  if (!Number.isSafeInteger(entry.size) || entry.size < 0)
    throw new ZipEntryError(entryName, `invalid size ${String(entry.size)}`);
  if (!(entry.mtime instanceof Date) || Number.isNaN(entry.mtime.getTime()))
    throw new ZipEntryError(entryName, 'invalid mtime');
  if (typeof entry.open !== 'function') throw new ZipEntryError(entryName, 'no open()');
  const { date, time } = dosDateTime(entry.mtime);
  return {
    entryName,
    name,
    size: entry.size,
    method: entry.compress ? METHOD_DEFLATE : METHOD_STORE,
    zip64: usesZip64(entry.size, entry.compress, forceZip64),
    dosDate: date,
    dosTime: time,
    seconds: unixSeconds(entry.mtime),
  };
}

function localHeader(e: PreparedEntry): Buffer {
  const extraLength = TIME_EXTRA_SIZE + (e.zip64 ? ZIP64_LOCAL_EXTRA_SIZE : 0);
  const buf = Buffer.allocUnsafe(LOCAL_HEADER_SIZE + e.name.length + extraLength);
  buf.writeUInt32LE(SIG_LOCAL, 0);
  buf.writeUInt16LE(e.zip64 ? VERSION_NEEDED_ZIP64 : VERSION_NEEDED, 4);
  buf.writeUInt16LE(FLAGS, 6);
  buf.writeUInt16LE(e.method, 8);
  buf.writeUInt16LE(e.dosTime, 10);
  buf.writeUInt16LE(e.dosDate, 12);
  buf.writeUInt32LE(0, 14); // CRC-32: in the data descriptor
  // Sizes: in the data descriptor; a Zip64 entry points at its 0x0001 extra field (APPNOTE 4.5.3).
  buf.writeUInt32LE(e.zip64 ? UINT32_MAX : 0, 18);
  buf.writeUInt32LE(e.zip64 ? UINT32_MAX : 0, 22);
  buf.writeUInt16LE(e.name.length, 26);
  buf.writeUInt16LE(extraLength, 28);
  let offset = LOCAL_HEADER_SIZE + e.name.copy(buf, LOCAL_HEADER_SIZE);
  offset = writeTimeExtra(buf, offset, e.seconds);
  if (e.zip64) {
    buf.writeUInt16LE(0x0001, offset);
    buf.writeUInt16LE(16, offset + 2);
    buf.fill(0, offset + 4, offset + 20);
  }
  return buf;
}

function dataDescriptor(
  e: PreparedEntry,
  crc: number,
  compressedSize: number,
  size: number,
): Buffer {
  const buf = Buffer.allocUnsafe(e.zip64 ? DESCRIPTOR_ZIP64_SIZE : DESCRIPTOR_SIZE);
  buf.writeUInt32LE(SIG_DESCRIPTOR, 0);
  buf.writeUInt32LE(crc, 4);
  if (e.zip64) {
    writeUInt64LE(buf, compressedSize, 8);
    writeUInt64LE(buf, size, 16);
  } else {
    buf.writeUInt32LE(compressedSize, 8);
    buf.writeUInt32LE(size, 12);
  }
  return buf;
}

/**
 * The central directory records, packed into 64 KiB blocks as entries complete (no object per
 * entry), handed out block by block at the end.
 */
class CentralDirectory {
  static readonly BLOCK_SIZE = 64 * 1024;
  #blocks: Buffer[] = [];
  #current: Buffer = Buffer.alloc(0);
  #used = 0;
  count = 0;

  add(
    e: PreparedEntry,
    crc: number,
    compressedSize: number,
    headerOffset: number,
    forceZip64: boolean,
  ): void {
    const bigSize = forceZip64 || e.size >= UINT32_MAX;
    const bigCompressed = forceZip64 || compressedSize >= UINT32_MAX;
    const bigOffset = forceZip64 || headerOffset >= UINT32_MAX;
    const zip64Fields = Number(bigSize) + Number(bigCompressed) + Number(bigOffset);
    const zip64ExtraLength = zip64Fields === 0 ? 0 : 4 + 8 * zip64Fields;
    const extraLength = TIME_EXTRA_SIZE + zip64ExtraLength;
    const length = CENTRAL_HEADER_SIZE + e.name.length + extraLength;

    if (this.#current.length - this.#used < length) {
      if (this.#used > 0) this.#blocks.push(this.#current.subarray(0, this.#used));
      this.#current = Buffer.allocUnsafe(Math.max(CentralDirectory.BLOCK_SIZE, length));
      this.#used = 0;
    }
    const buf = this.#current;
    const start = this.#used;
    buf.writeUInt32LE(SIG_CENTRAL, start);
    buf.writeUInt16LE(VERSION_MADE_BY, start + 4);
    buf.writeUInt16LE(
      e.zip64 || zip64Fields > 0 ? VERSION_NEEDED_ZIP64 : VERSION_NEEDED,
      start + 6,
    );
    buf.writeUInt16LE(FLAGS, start + 8);
    buf.writeUInt16LE(e.method, start + 10);
    buf.writeUInt16LE(e.dosTime, start + 12);
    buf.writeUInt16LE(e.dosDate, start + 14);
    buf.writeUInt32LE(crc, start + 16);
    buf.writeUInt32LE(bigCompressed ? UINT32_MAX : compressedSize, start + 20);
    buf.writeUInt32LE(bigSize ? UINT32_MAX : e.size, start + 24);
    buf.writeUInt16LE(e.name.length, start + 28);
    buf.writeUInt16LE(extraLength, start + 30);
    buf.writeUInt16LE(0, start + 32); // comment length
    buf.writeUInt16LE(0, start + 34); // disk number start
    buf.writeUInt16LE(0, start + 36); // internal attributes
    buf.writeUInt32LE(EXTERNAL_ATTRIBUTES, start + 38);
    buf.writeUInt32LE(bigOffset ? UINT32_MAX : headerOffset, start + 42);
    let offset = start + CENTRAL_HEADER_SIZE + e.name.copy(buf, start + CENTRAL_HEADER_SIZE);
    offset = writeTimeExtra(buf, offset, e.seconds);
    if (zip64Fields > 0) {
      buf.writeUInt16LE(0x0001, offset);
      buf.writeUInt16LE(8 * zip64Fields, offset + 2);
      offset += 4;
      // Only the fields whose fixed counterpart holds 0xFFFFFFFF, in this order (APPNOTE 4.5.3).
      if (bigSize) offset = writeUInt64LE(buf, e.size, offset);
      if (bigCompressed) offset = writeUInt64LE(buf, compressedSize, offset);
      if (bigOffset) offset = writeUInt64LE(buf, headerOffset, offset);
    }
    this.#used = offset;
    this.count++;
  }

  /** The records, releasing each block as it is handed out. */
  *drain(): Generator<Buffer> {
    if (this.#used > 0) this.#blocks.push(this.#current.subarray(0, this.#used));
    this.#current = Buffer.alloc(0);
    this.#used = 0;
    const blocks = this.#blocks;
    this.#blocks = [];
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i];
      if (block === undefined) continue;
      blocks[i] = Buffer.alloc(0);
      yield block;
    }
  }
}

function endRecords(
  count: number,
  directorySize: number,
  directoryOffset: number,
  forceZip64: boolean,
): Buffer {
  const bigCount = forceZip64 || count >= UINT16_MAX;
  const bigSize = forceZip64 || directorySize >= UINT32_MAX;
  const bigOffset = forceZip64 || directoryOffset >= UINT32_MAX;
  const zip64 = bigCount || bigSize || bigOffset;
  const buf = Buffer.alloc((zip64 ? ZIP64_END_SIZE + ZIP64_LOCATOR_SIZE : 0) + END_SIZE);
  let offset = 0;
  if (zip64) {
    const zip64EndOffset = directoryOffset + directorySize;
    buf.writeUInt32LE(SIG_ZIP64_END, 0);
    writeUInt64LE(buf, ZIP64_END_SIZE - 12, 4); // size of the rest of the record
    buf.writeUInt16LE(VERSION_MADE_BY, 12);
    buf.writeUInt16LE(VERSION_NEEDED_ZIP64, 14);
    buf.writeUInt32LE(0, 16); // this disk
    buf.writeUInt32LE(0, 20); // disk with the central directory
    writeUInt64LE(buf, count, 24);
    writeUInt64LE(buf, count, 32);
    writeUInt64LE(buf, directorySize, 40);
    writeUInt64LE(buf, directoryOffset, 48);
    buf.writeUInt32LE(SIG_ZIP64_LOCATOR, 56);
    buf.writeUInt32LE(0, 60); // disk with the Zip64 end record
    writeUInt64LE(buf, zip64EndOffset, 64);
    buf.writeUInt32LE(1, 72); // total disks
    offset = ZIP64_END_SIZE + ZIP64_LOCATOR_SIZE;
  }
  buf.writeUInt32LE(SIG_END, offset);
  buf.writeUInt16LE(0, offset + 4);
  buf.writeUInt16LE(0, offset + 6);
  buf.writeUInt16LE(bigCount ? UINT16_MAX : count, offset + 8);
  buf.writeUInt16LE(bigCount ? UINT16_MAX : count, offset + 10);
  buf.writeUInt32LE(bigSize ? UINT32_MAX : directorySize, offset + 12);
  buf.writeUInt32LE(bigOffset ? UINT32_MAX : directoryOffset, offset + 16);
  buf.writeUInt16LE(0, offset + 20); // comment length
  return buf;
}

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  throw new TypeError('a zip entry source yielded something other than bytes');
}

/** Sources are asked for reads of at least this size (a file stream then reads 1 MiB at a time). */
const SOURCE_READ_SIZE = 1024 * 1024;

/**
 * Asks a byte stream for large reads: `read(n)` with n above the high-water mark raises it, and a
 * file stream reads `highWaterMark` bytes a time, so a stream opened with the default 64 KiB
 * reads 1 MiB chunks instead — 16 times fewer reads, writes and chunks to handle. Only while
 * nothing is buffered (read then returns null and consumes nothing, bar a stream that ends at
 * once) and never in object mode, where the mark counts objects.
 */
function askForLargeReads(stream: Readable): Buffer | null {
  if (
    stream.readableObjectMode ||
    stream.readableHighWaterMark >= SOURCE_READ_SIZE ||
    stream.readableLength > 0 ||
    stream.readableEnded ||
    stream.destroyed
  )
    return null;
  const chunk: unknown = stream.read(SOURCE_READ_SIZE);
  return chunk === null ? null : toBuffer(chunk);
}

/**
 * The chunks of a stream exactly as it emits them: unlike a Readable's own async iterator, which
 * calls `read()` and so concatenates whatever is buffered, this never copies. The stream is
 * paused while a chunk waits, so at most one chunk (plus the stream's own buffer) is held.
 * Ends at 'end'; throws the stream's error, or when it closes before its end.
 */
async function* chunksOf(stream: Readable): AsyncGenerator<Buffer, void, undefined> {
  const queue: Buffer[] = [];
  const first = askForLargeReads(stream);
  if (first !== null) queue.push(first);
  let ended = stream.readableEnded;
  let failure: Error | undefined =
    stream.errored ??
    (stream.destroyed && !ended ? new Error('the stream was destroyed') : undefined);
  let wake: (() => void) | undefined;
  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const onData = (chunk: unknown) => {
    queue.push(toBuffer(chunk));
    stream.pause();
    notify();
  };
  const onEnd = () => {
    ended = true;
    notify();
  };
  const onError = (err: Error) => {
    failure ??= err;
    notify();
  };
  const onClose = () => {
    if (!ended) failure ??= new Error('the stream closed before its end');
    notify();
  };
  stream.on('data', onData);
  stream.on('end', onEnd);
  stream.on('error', onError);
  stream.on('close', onClose);
  try {
    for (;;) {
      const chunk = queue.shift();
      if (chunk !== undefined) {
        if (chunk.length > 0) yield chunk;
        continue;
      }
      if (failure !== undefined) throw failure;
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
        stream.resume();
      });
    }
  } finally {
    stream.off('data', onData);
    stream.off('end', onEnd);
    stream.off('error', onError);
    stream.off('close', onClose);
  }
}

/** Resolves on 'drain'; rejects when the stream fails or closes first. */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      stream.off('drain', onDrain);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    const onDrain = () => {
      cleanup();
      resolve();
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onClose = () => {
      cleanup();
      reject(new Error('the deflate stream closed'));
    };
    stream.on('drain', onDrain);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}

const ignore = () => undefined;

/** Destroys a stream we are done with, whatever it emits afterwards. */
function discard(stream: Readable | Writable): void {
  stream.on('error', ignore);
  stream.destroy();
}

/**
 * The streams the archive has open (at most one source and one deflate stream), so that
 * destroying the archive stream closes them at once, even while the generator waits on them.
 */
class OpenStreams {
  #closed = false;
  source: Readable | undefined;
  deflate: Transform | undefined;

  /** A method, not a field: it changes while the generator awaits. */
  isClosed(): boolean {
    return this.#closed;
  }

  close(): void {
    this.#closed = true;
    if (this.source) discard(this.source);
    if (this.deflate) discard(this.deflate);
  }
}

/** Counts and checksums an entry's uncompressed bytes, failing as soon as they exceed its size. */
class Meter {
  crc = 0;
  bytes = 0;
  constructor(private readonly entry: PreparedEntry) {}

  add(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.bytes > this.entry.size)
      throw new ZipEntryError(
        this.entry.entryName,
        `the source yielded more than the declared ${this.entry.size} bytes`,
      );
    this.crc = crc32(chunk, this.crc);
  }

  finish(): void {
    if (this.bytes !== this.entry.size)
      throw new ZipEntryError(
        this.entry.entryName,
        `the source yielded ${this.bytes} bytes, not the declared ${this.entry.size}`,
      );
  }
}

interface EntryResult {
  crc: number;
  compressedSize: number;
}

async function* storedData(
  source: Readable,
  meter: Meter,
): AsyncGenerator<Buffer, EntryResult, undefined> {
  for await (const chunk of chunksOf(source)) {
    meter.add(chunk);
    yield chunk;
  }
  meter.finish();
  return { crc: meter.crc, compressedSize: meter.bytes };
}

/**
 * Entries up to this size are deflated in one synchronous call once read: setting up a zlib
 * stream costs about twice as much as deflating a few KiB, and this blocks for at most ~0.3 ms.
 */
const SMALL_DEFLATE_MAX = 16 * 1024;

async function* smallDeflatedData(
  source: Readable,
  meter: Meter,
): AsyncGenerator<Buffer, EntryResult, undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of chunksOf(source)) {
    meter.add(chunk);
    chunks.push(chunk);
  }
  meter.finish();
  const input = chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks);
  const output = deflateRawSync(input, { level: DEFLATE_LEVEL });
  yield output;
  return { crc: meter.crc, compressedSize: output.length };
}

async function* deflatedData(
  source: Readable,
  meter: Meter,
  open: OpenStreams,
): AsyncGenerator<Buffer, EntryResult, undefined> {
  const deflate = createDeflateRaw({ level: DEFLATE_LEVEL, chunkSize: DEFLATE_CHUNK_SIZE });
  open.deflate = deflate;
  const feeding = (async () => {
    try {
      for await (const chunk of chunksOf(source)) {
        meter.add(chunk);
        if (!deflate.write(chunk)) await drained(deflate);
      }
      meter.finish();
      deflate.end();
    } catch (err) {
      deflate.destroy(err instanceof Error ? err : new Error(String(err)));
      throw err;
    }
  })();
  feeding.catch(ignore); // awaited below; this only keeps an early failure from going unhandled
  try {
    let compressedSize = 0;
    for await (const chunk of chunksOf(deflate)) {
      compressedSize += chunk.length;
      yield chunk;
    }
    await feeding;
    return { crc: meter.crc, compressedSize };
  } finally {
    open.deflate = undefined;
    discard(deflate);
  }
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

async function* archive(
  entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>,
  forceZip64: boolean,
  open: OpenStreams,
): AsyncGenerator<Buffer, void, undefined> {
  const directory = new CentralDirectory();
  let offset = 0;
  for await (const entry of entries) {
    if (open.isClosed()) {
      await closeUnwritten(entry);
      return;
    }
    const e = prepare(entry, forceZip64);
    let source: Readable | undefined;
    try {
      source = await entry.open();
      if (open.isClosed()) return;
      open.source = source;
      const headerOffset = offset;
      const header = localHeader(e);
      yield header;
      offset += header.length;

      const meter = new Meter(e);
      const data = !entry.compress
        ? storedData(source, meter)
        : e.size <= SMALL_DEFLATE_MAX
          ? smallDeflatedData(source, meter)
          : deflatedData(source, meter, open);
      const { crc, compressedSize } = yield* data;
      offset += compressedSize;
      if (!e.zip64 && compressedSize >= UINT32_MAX)
        throw new ZipEntryError(e.entryName, 'deflated to 4 GiB or more without Zip64');

      const descriptor = dataDescriptor(e, crc, compressedSize, e.size);
      yield descriptor;
      offset += descriptor.length;
      directory.add(e, crc, compressedSize, headerOffset, forceZip64);
    } catch (err) {
      if (err instanceof ZipEntryError) throw err;
      const problem = err instanceof Error ? err.message : String(err);
      throw new ZipEntryError(e.entryName, problem, { cause: err });
    } finally {
      open.source = undefined;
      // The source is done with (or abandoned): close it (a file descriptor, a connection).
      if (source) discard(source);
    }
  }

  const directoryOffset = offset;
  for (const block of directory.drain()) {
    yield block;
    offset += block.length;
  }
  yield endRecords(directory.count, offset - directoryOffset, directoryOffset, forceZip64);
}

/**
 * Pulls the archive generator as the consumer reads. Unlike `Readable.from`, destroying it (or
 * aborting the signal) closes the open source at once, even while the generator waits on it.
 */
class ZipReadable extends Readable {
  readonly #open = new OpenStreams();
  readonly #chunks: AsyncGenerator<Buffer, void, undefined>;
  #pumping = false;

  constructor(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>, opts: ZipOptions) {
    super({ highWaterMark: OUTPUT_HIGH_WATER_MARK });
    this.#chunks = archive(entries, opts.forceZip64 === true, this.#open);
    if (opts.signal) addAbortSignal(opts.signal, this);
  }

  override _read(): void {
    if (this.#pumping) return;
    this.#pumping = true;
    void this.#pump();
  }

  async #pump(): Promise<void> {
    try {
      for (;;) {
        const step = await this.#chunks.next();
        if (this.destroyed) return;
        if (step.done) {
          this.push(null);
          return;
        }
        if (!this.push(step.value)) break;
      }
      this.#pumping = false;
    } catch (err) {
      this.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // Closes the open source and deflate stream now; the generator's own cleanup follows.
    this.#open.close();
    this.#chunks.return(undefined).catch(ignore);
    callback(error);
  }
}

/** A Readable of the whole archive; pulls entries lazily (Iterable or AsyncIterable) and respects backpressure. */
export function zipStream(
  entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>,
  opts: ZipOptions = {},
): Readable {
  return new ZipReadable(entries, opts);
}
