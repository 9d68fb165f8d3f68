/** Helpers for the zip tests (test-only): archives checked with Info-ZIP `unzip` and Python's `zipfile`. */
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { zipStream, type ZipEntry, type ZipOptions } from './zip-writer.js';

const execFileAsync = promisify(execFile);

export async function writeZip(
  dir: string,
  entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>,
  opts?: ZipOptions,
  fileName = 'archive.zip',
): Promise<string> {
  const file = path.join(dir, fileName);
  await pipeline(zipStream(entries, opts), createWriteStream(file));
  return file;
}

/** `unzip -t -q`: rejects when unzip exits non-zero (tolerates only "zipfile is empty" when asked). */
export async function unzipTest(file: string, { allowEmpty = false } = {}): Promise<string> {
  try {
    const { stdout } = await execFileAsync('unzip', ['-t', '-q', file], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (err) {
    const failure = err as { code?: number; stdout?: string; stderr?: string };
    // unzip exits 1 (a warning) for an archive without entries, which it still reads fine.
    if (allowEmpty && failure.code === 1 && /zipfile is empty/.test(failure.stdout ?? ''))
      return failure.stdout ?? '';
    throw err;
  }
}

export interface PyEntry {
  name: string;
  size: number;
  compressSize: number;
  crc: number;
  method: number;
  flags: number;
  version: number;
  system: number;
  dateTime: number[];
  /** The central directory extra field, hex. */
  extra: string;
  headerOffset: number;
  /** SHA-256 of the entry's bytes as zipfile reads them (zipfile also checks the CRC); null if not read. */
  sha256: string | null;
}

const PY_ZIPINFO = `
import hashlib, json, sys, zipfile
path, stride = sys.argv[1], int(sys.argv[2])
out = []
with zipfile.ZipFile(path) as z:
    for n, i in enumerate(z.infolist()):
        digest = None
        if stride and n % stride == 0:
            h = hashlib.sha256()
            with z.open(i) as f:
                while True:
                    b = f.read(1 << 20)
                    if not b:
                        break
                    h.update(b)
            digest = h.hexdigest()
        out.append(dict(name=i.filename, size=i.file_size, compressSize=i.compress_size,
            crc=i.CRC, method=i.compress_type, flags=i.flag_bits, version=i.extract_version,
            system=i.create_system, dateTime=list(i.date_time), extra=i.extra.hex(),
            headerOffset=i.header_offset, sha256=digest))
sys.stdout.write(json.dumps(out))
`;

/**
 * What Python's zipfile sees in the archive. Every `readStride`-th entry (all by default, none
 * with 0) is also read, which makes zipfile check its CRC, and hashed.
 */
export async function pythonZipInfo(file: string, readStride = 1): Promise<PyEntry[]> {
  const { stdout } = await execFileAsync('python3', ['-c', PY_ZIPINFO, file, String(readStride)], {
    maxBuffer: 512 * 1024 * 1024,
  });
  return JSON.parse(stdout) as PyEntry[];
}

export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** The expected view of an entry built from in-memory bytes. */
export interface Expected {
  name: string;
  data: Buffer;
}

export function expectedOf(
  entries: Expected[],
): { name: string; size: number; crc: number; sha256: string }[] {
  return entries.map(({ name, data }) => ({
    name,
    size: data.length,
    crc: crc32(data),
    sha256: sha256(data),
  }));
}

/** A source yielding `data` in chunks of the given sizes (cycled), as Buffers. */
export function chunkedSource(data: Buffer, chunkSizes: number[] = [65_536]): Readable {
  const chunks: Buffer[] = [];
  let offset = 0;
  for (let i = 0; offset < data.length; i++) {
    const size = chunkSizes[i % chunkSizes.length] ?? 65_536;
    chunks.push(data.subarray(offset, offset + size));
    offset += size;
  }
  return Readable.from(chunks, { objectMode: false });
}

export function memoryEntry(
  name: string,
  data: Buffer,
  compress: boolean,
  mtime = new Date('2025-06-15T10:20:30Z'),
  chunkSizes?: number[],
): ZipEntry {
  return {
    name,
    size: data.length,
    mtime,
    compress,
    open: () => Promise.resolve(chunkedSource(data, chunkSizes)),
  };
}

export interface LocalRecord {
  name: string;
  version: number;
  flags: number;
  method: number;
  extraIds: number[];
  localSizes: [number, number];
  descriptor: { crc: number; compressedSize: number; size: number };
  unixTime: number | null;
}

/**
 * Walks the local headers and data descriptors in file order, the way a streaming extractor
 * does, using the central directory's compressed sizes (from zipfile) to step over the data.
 */
export async function walkLocalRecords(file: string, central: PyEntry[]): Promise<LocalRecord[]> {
  const buf = await readFile(file);
  const records: LocalRecord[] = [];
  let offset = 0;
  for (const entry of central) {
    if (offset !== entry.headerOffset)
      throw new Error(`${entry.name}: header at ${offset}, not ${entry.headerOffset}`);
    if (buf.readUInt32LE(offset) !== 0x04034b50) throw new Error(`${entry.name}: no local header`);
    const version = buf.readUInt16LE(offset + 4);
    const flags = buf.readUInt16LE(offset + 6);
    const method = buf.readUInt16LE(offset + 8);
    const localSizes: [number, number] = [
      buf.readUInt32LE(offset + 18),
      buf.readUInt32LE(offset + 22),
    ];
    const nameLength = buf.readUInt16LE(offset + 26);
    const extraLength = buf.readUInt16LE(offset + 28);
    const name = buf.toString('utf8', offset + 30, offset + 30 + nameLength);
    const extraIds: number[] = [];
    let unixTime: number | null = null;
    let zip64 = false;
    for (let p = offset + 30 + nameLength; p < offset + 30 + nameLength + extraLength;) {
      const id = buf.readUInt16LE(p);
      const length = buf.readUInt16LE(p + 2);
      extraIds.push(id);
      if (id === 0x5455) unixTime = buf.readInt32LE(p + 5);
      if (id === 0x0001) zip64 = true;
      p += 4 + length;
    }
    let p = offset + 30 + nameLength + extraLength + entry.compressSize;
    if (buf.readUInt32LE(p) !== 0x08074b50) throw new Error(`${entry.name}: no data descriptor`);
    const crc = buf.readUInt32LE(p + 4);
    let compressedSize: number;
    let size: number;
    if (zip64) {
      compressedSize = Number(buf.readBigUInt64LE(p + 8));
      size = Number(buf.readBigUInt64LE(p + 16));
      p += 24;
    } else {
      compressedSize = buf.readUInt32LE(p + 8);
      size = buf.readUInt32LE(p + 12);
      p += 16;
    }
    records.push({
      name,
      version,
      flags,
      method,
      extraIds,
      localSizes,
      descriptor: { crc, compressedSize, size },
      unixTime,
    });
    offset = p;
  }
  return records;
}

/** The archive's end records: whether a Zip64 end record and locator precede the classic one. */
export async function endRecords(
  file: string,
): Promise<{ zip64: boolean; count: number; classicCount: number }> {
  const handle = await open(file);
  try {
    const { size } = await handle.stat();
    const read = async (length: number, position: number) => {
      const buf = Buffer.alloc(length);
      await handle.read(buf, 0, length, position);
      return buf;
    };
    const end = await read(22, size - 22);
    if (end.readUInt32LE(0) !== 0x06054b50) throw new Error('no end of central directory record');
    const classicCount = end.readUInt16LE(10);
    const locator = size >= 42 ? await read(20, size - 42) : Buffer.alloc(20);
    const zip64 = locator.readUInt32LE(0) === 0x07064b50;
    if (!zip64) return { zip64, count: classicCount, classicCount };
    const record = await read(56, Number(locator.readBigUInt64LE(8)));
    if (record.readUInt32LE(0) !== 0x06064b50) throw new Error('no Zip64 end record');
    return { zip64, count: Number(record.readBigUInt64LE(32)), classicCount };
  } finally {
    await handle.close();
  }
}
