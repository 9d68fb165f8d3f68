import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  endRecords,
  expectedOf,
  memoryEntry,
  pythonZipInfo,
  unzipTest,
  walkLocalRecords,
  writeZip,
  type Expected,
  type PyEntry,
} from './zip-tools.fixture.js';
import { ARCHIVE_END_BOUND, entryBytesBound, zipStream, type ZipEntry } from './zip-writer.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'raccolta-zip-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const FLAG_DESCRIPTOR = 1 << 3;
const FLAG_UTF8 = 1 << 11;
const UNIX = 3;

function text(bytes: number): Buffer {
  const line = 'Raccolta collects files; the quick brown fox jumps over the lazy dog. 0123456789\n';
  return Buffer.from(line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes));
}

/** Checks an archive with unzip, zipfile and a walk of its local records; returns zipfile's view. */
async function verify(
  file: string,
  expected: Expected[],
  { zip64 = false, compressed = [] as string[] } = {},
): Promise<PyEntry[]> {
  await unzipTest(file, { allowEmpty: expected.length === 0 });
  const info = await pythonZipInfo(file);
  expect(info.map(({ name, size, crc, sha256 }) => ({ name, size, crc, sha256 }))).toEqual(
    expectedOf(expected),
  );
  for (const entry of info) {
    expect(entry.flags & (FLAG_DESCRIPTOR | FLAG_UTF8)).toBe(FLAG_DESCRIPTOR | FLAG_UTF8);
    expect(entry.method).toBe(compressed.includes(entry.name) ? 8 : 0);
    expect(entry.system).toBe(UNIX);
    expect(entry.version).toBe(zip64 ? 45 : 20);
    if (entry.method === 0) expect(entry.compressSize).toBe(entry.size);
  }
  const local = await walkLocalRecords(file, info);
  local.forEach((record, i) => {
    const central = info[i];
    if (!central) throw new Error('missing central record');
    expect(record.name).toBe(central.name);
    expect(record.flags).toBe(central.flags);
    expect(record.method).toBe(central.method);
    expect(record.version).toBe(zip64 ? 45 : 20);
    expect(record.extraIds).toEqual(zip64 ? [0x5455, 0x0001] : [0x5455]);
    expect(record.localSizes).toEqual(zip64 ? [0xffffffff, 0xffffffff] : [0, 0]);
    expect(record.descriptor).toEqual({
      crc: central.crc,
      compressedSize: central.compressSize,
      size: central.size,
    });
  });
  return info;
}

describe('zipStream', () => {
  it('stores entries (STORE) whatever the source chunk sizes', async () => {
    const expected: Expected[] = [
      { name: 'one-byte.bin', data: randomBytes(1) },
      { name: 'photos/a.jpg', data: randomBytes(100_000) },
      { name: 'photos/b.jpg', data: randomBytes(1_500_000) },
      { name: 'notes.txt', data: text(70_000) },
    ];
    const file = await writeZip(
      dir,
      expected.map(({ name, data }, i) =>
        memoryEntry(name, data, false, undefined, [[1], [7, 4096, 13], [65_536], [1_048_576]][i]),
      ),
    );
    await verify(file, expected);
  });

  it('deflates entries (DEFLATE), compressible and not', async () => {
    const expected: Expected[] = [
      { name: 'report.csv', data: text(3_000_000) },
      { name: 'random.bin', data: randomBytes(500_000) },
      { name: 'tiny.txt', data: Buffer.from('hi') },
    ];
    const file = await writeZip(
      dir,
      expected.map(({ name, data }) => memoryEntry(name, data, true, undefined, [10_000, 333])),
    );
    const info = await verify(file, expected, { compressed: expected.map((e) => e.name) });
    const csv = info.find((e) => e.name === 'report.csv');
    expect(csv?.compressSize).toBeLessThan(100_000);
  });

  it('mixes stored, deflated and empty entries, read from files', async () => {
    const expected: Expected[] = [];
    const entries: ZipEntry[] = [];
    for (let i = 0; i < 12; i++) {
      const compress = i % 3 === 1;
      const data =
        i % 4 === 3 ? Buffer.alloc(0) : compress ? text(20_000 * i) : randomBytes(50_000 * i);
      const name = `dir ${i % 2}/file-${i}.${compress ? 'txt' : 'jpg'}`;
      const source = path.join(dir, `source-${i}`);
      await writeFile(source, data);
      expected.push({ name, data });
      entries.push({
        name,
        size: data.length,
        mtime: new Date(),
        compress,
        open: () => Promise.resolve(createReadStream(source, { highWaterMark: 1024 * 1024 })),
      });
    }
    const file = await writeZip(dir, entries);
    await verify(file, expected, {
      compressed: expected.filter((_, i) => i % 3 === 1).map((e) => e.name),
    });
  });

  it('writes empty entries, stored and deflated', async () => {
    const expected: Expected[] = [
      { name: 'empty-stored', data: Buffer.alloc(0) },
      { name: 'empty-deflated.txt', data: Buffer.alloc(0) },
      { name: 'folder/empty.jpg', data: Buffer.alloc(0) },
    ];
    const file = await writeZip(
      dir,
      expected.map(({ name, data }, i) => memoryEntry(name, data, i === 1)),
    );
    await verify(file, expected, { compressed: ['empty-deflated.txt'] });
  });

  it('writes Unicode names as UTF-8 (bit 11)', async () => {
    const expected: Expected[] = [
      { name: 'café/résumé.txt', data: text(1000) },
      { name: '日本/東京の写真.jpg', data: randomBytes(10_000) },
      { name: 'emoji 😀🎉/party 🥳.png', data: randomBytes(5000) },
      { name: 'Ελληνικά/αρχείο.pdf', data: Buffer.alloc(0) },
    ];
    const file = await writeZip(
      dir,
      expected.map(({ name, data }, i) => memoryEntry(name, data, i === 0)),
    );
    await verify(file, expected, { compressed: ['café/résumé.txt'] });
    const listing = await unzipTest(file);
    expect(listing).toContain('No errors');
  });

  it('writes an archive without entries', async () => {
    const file = await writeZip(dir, []);
    expect((await stat(file)).size).toBe(22);
    await verify(file, []);
    expect(await endRecords(file)).toEqual({ zip64: false, count: 0, classicCount: 0 });
  });

  it('writes 70,000 tiny entries with a Zip64 end record (≥ 65,535 entries)', async () => {
    const count = 70_000;
    const expected: Expected[] = [];
    for (let i = 0; i < count; i++)
      expected.push({ name: `f/${i}.txt`, data: Buffer.from(`entry ${i}\n`) });
    function* entries(): Generator<ZipEntry> {
      for (const [i, { name, data }] of expected.entries())
        yield memoryEntry(name, data, i % 10 === 0);
    }
    const file = await writeZip(dir, entries());
    // unzip reads every entry and checks its CRC; so does zipfile, which hashes them too.
    await unzipTest(file);
    const info = await pythonZipInfo(file);
    const row = (e: { name: string; size: number; crc: number; sha256: string | null }) =>
      `${e.name} ${e.size} ${e.crc} ${e.sha256 ?? ''}`;
    expect(info.map(row).join('\n')).toBe(expectedOf(expected).map(row).join('\n'));
    expect(await endRecords(file)).toEqual({ zip64: true, count, classicCount: 0xffff });
  }, 60_000);

  it('writes every record as Zip64 with forceZip64', async () => {
    const expected: Expected[] = [
      { name: 'a.jpg', data: randomBytes(30_000) },
      { name: 'b.txt', data: text(30_000) },
      { name: 'c-empty', data: Buffer.alloc(0) },
    ];
    const file = await writeZip(
      dir,
      expected.map(({ name, data }, i) => memoryEntry(name, data, i === 1)),
      { forceZip64: true },
    );
    const info = await verify(file, expected, { zip64: true, compressed: ['b.txt'] });
    for (const entry of info) {
      // The central record's Zip64 extra holds the two sizes and the offset: 0x0001, 24 bytes.
      expect(entry.extra).toContain('01001800');
    }
    expect(await endRecords(file)).toEqual({ zip64: true, count: 3, classicCount: 0xffff });
  });

  it('writes an archive without entries with forceZip64', async () => {
    const file = await writeZip(dir, [], { forceZip64: true });
    await verify(file, []);
    expect(await endRecords(file)).toEqual({ zip64: true, count: 0, classicCount: 0xffff });
  });

  it('sets DOS date/time from the UTC fields, clamped to 1980–2107, and the Unix mtime', async () => {
    const times = [
      new Date('2024-02-29T23:59:59.900Z'),
      new Date('1975-01-01T00:00:00Z'),
      new Date('2150-01-01T00:00:00Z'),
    ];
    const entries = times.map((mtime, i) => memoryEntry(`t${i}`, Buffer.from('x'), false, mtime));
    const file = await writeZip(dir, entries);
    await unzipTest(file);
    const info = await pythonZipInfo(file);
    expect(info.map((e) => e.dateTime)).toEqual([
      [2024, 2, 29, 23, 59, 58],
      [1980, 1, 1, 0, 0, 0],
      [2107, 12, 31, 23, 59, 58],
    ]);
    const local = await walkLocalRecords(file, info);
    expect(local.map((r) => r.unixTime)).toEqual([
      Math.floor(Date.parse('2024-02-29T23:59:59Z') / 1000),
      Math.floor(Date.parse('1975-01-01T00:00:00Z') / 1000),
      0x7fffffff, // the signed 32-bit field's last second (2038)
    ]);
    // Central extended timestamp: 0x5455, 5 bytes, flags 1, mtime.
    const first = info[0];
    const seconds = Buffer.alloc(4);
    seconds.writeInt32LE(Math.floor(Date.parse('2024-02-29T23:59:59Z') / 1000));
    expect(first?.extra).toBe(`5554050001${seconds.toString('hex')}`);
  });

  it('pulls entries lazily, opening one source at a time, with backpressure', async () => {
    let pulled = 0;
    const opened: Readable[] = [];
    let openedWhileAnotherOpen = 0;
    const data = randomBytes(256 * 1024);
    async function* entries(): AsyncGenerator<ZipEntry> {
      for (let i = 0; i < 50; i++) {
        pulled++;
        yield {
          name: `${i}.bin`,
          size: data.length,
          mtime: new Date(),
          compress: i % 2 === 0,
          open: () => {
            if (opened.some((source) => !source.destroyed)) openedWhileAnotherOpen++;
            const source = Readable.from([data.subarray(0, 100_000), data.subarray(100_000)], {
              objectMode: false,
            });
            opened.push(source);
            return Promise.resolve(source);
          },
        };
        await Promise.resolve();
      }
    }
    const stream = zipStream(entries());
    // Nothing is pulled before the stream is read.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pulled).toBe(0);
    // A paused stream stops pulling once its buffer is full.
    stream.pause();
    stream.read(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pulled).toBeGreaterThan(0);
    expect(pulled).toBeLessThan(5);
    expect(stream.readableLength).toBeLessThan(2 * 1024 * 1024);
    // Reading on completes the archive with each source closed before the next opens.
    let bytes = 0;
    await pipeline(
      stream,
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          bytes += chunk.length;
          callback();
        },
      }),
    );
    expect(pulled).toBe(50);
    expect(opened.length).toBe(50);
    expect(openedWhileAnotherOpen).toBe(0);
    expect(opened.every((source) => source.destroyed)).toBe(true);
    expect(bytes).toBeGreaterThan(25 * data.length);
  });

  describe('fails (never a wrong archive)', () => {
    for (const compress of [false, true]) {
      const method = compress ? 'DEFLATE' : 'STORE';

      it(`when a source yields more bytes than declared (${method})`, async () => {
        const entry = memoryEntry('too-long.bin', randomBytes(200_000), compress);
        entry.size = 150_000;
        await expect(
          writeZip(dir, [memoryEntry('ok', Buffer.from('ok'), false), entry]),
        ).rejects.toThrow(/"too-long\.bin".*more than the declared 150000 bytes/);
      });

      it(`when a source yields fewer bytes than declared (${method})`, async () => {
        const entry = memoryEntry('too-short.bin', randomBytes(100_000), compress);
        entry.size = 100_001;
        await expect(
          writeZip(dir, [entry, memoryEntry('after', Buffer.from('x'), false)]),
        ).rejects.toThrow(/"too-short\.bin".*yielded 100000 bytes, not the declared 100001/);
      });

      it(`when a source fails, naming the entry (${method})`, async () => {
        const source = new PassThrough();
        source.write(randomBytes(1000));
        setTimeout(() => source.destroy(new Error('disk on fire')), 10);
        const entry: ZipEntry = {
          name: 'broken.jpg',
          size: 5000,
          mtime: new Date(),
          compress,
          open: () => Promise.resolve(source),
        };
        await expect(writeZip(dir, [entry])).rejects.toThrow(/"broken\.jpg".*disk on fire/);
      });
    }

    it('when open() rejects', async () => {
      const entry: ZipEntry = {
        name: 'gone.jpg',
        size: 10,
        mtime: new Date(),
        compress: false,
        open: () => Promise.reject(new Error('NoSuchKey')),
      };
      await expect(writeZip(dir, [entry])).rejects.toThrow(/"gone\.jpg".*NoSuchKey/);
    });

    it('on an invalid entry', async () => {
      const entry = memoryEntry('neg', Buffer.alloc(0), false);
      entry.size = -1;
      await expect(writeZip(dir, [entry])).rejects.toThrow(/"neg": invalid size/);
    });
  });

  describe('closes the open source', () => {
    /** A source that yields a chunk and then waits forever, like a stalled download. */
    function stalledEntry(compress: boolean): { entry: ZipEntry; source: Readable } {
      const source = new Readable({ read() {} });
      source.push(randomBytes(64 * 1024));
      return {
        source,
        entry: {
          name: 'stalled.bin',
          size: 10_000_000,
          mtime: new Date(),
          compress,
          open: () => Promise.resolve(source),
        },
      };
    }

    for (const compress of [false, true]) {
      it(`when the signal aborts (${compress ? 'DEFLATE' : 'STORE'})`, async () => {
        const { entry, source } = stalledEntry(compress);
        const controller = new AbortController();
        const written = writeZip(dir, [entry], { signal: controller.signal });
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(source.destroyed).toBe(false);
        controller.abort();
        await expect(written).rejects.toThrow(/abort/i);
        expect(source.destroyed).toBe(true);
      });

      it(`when the output stream is destroyed (${compress ? 'DEFLATE' : 'STORE'})`, async () => {
        const { entry, source } = stalledEntry(compress);
        const stream = zipStream([entry]);
        stream.resume();
        await new Promise((resolve) => setTimeout(resolve, 50));
        stream.destroy();
        expect(source.destroyed).toBe(true);
        await new Promise((resolve) => stream.once('close', resolve));
      });
    }

    it('when the signal is already aborted, opening nothing', async () => {
      let opened = false;
      const entry: ZipEntry = {
        ...memoryEntry('x', Buffer.from('x'), false),
        open: () => {
          opened = true;
          return Promise.resolve(Readable.from([Buffer.from('x')]));
        },
      };
      await expect(writeZip(dir, [entry], { signal: AbortSignal.abort() })).rejects.toThrow(
        /abort/i,
      );
      expect(opened).toBe(false);
    });

    it('when destroyed while the next entry is fetched (a source the iterator opened)', async () => {
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      const preOpened = new Readable({ read() {} });
      async function* entries(): AsyncGenerator<ZipEntry> {
        yield memoryEntry('first', randomBytes(10), false);
        await gate;
        yield {
          ...memoryEntry('second', Buffer.alloc(10), false),
          open: () => Promise.resolve(preOpened),
        };
      }
      const stream = zipStream(entries());
      stream.resume();
      await sleep(50);
      stream.destroy();
      release();
      await sleep(50);
      expect(preOpened.destroyed).toBe(true);
    });

    it.runIf(process.platform === 'linux')('leaks no file descriptor when aborted', async () => {
      const files: string[] = [];
      for (let i = 0; i < 3; i++) {
        const file = path.join(dir, `big-${i}.bin`);
        await writeFile(file, randomBytes(4 * 1024 * 1024));
        files.push(file);
      }
      const fds = async () => (await readdir('/proc/self/fd')).length;
      const baseline = await fds();
      for (const compress of [false, true]) {
        const controller = new AbortController();
        const entries = files.map((file, i) => ({
          name: `f${i}`,
          size: 4 * 1024 * 1024,
          mtime: new Date(),
          compress,
          open: () => Promise.resolve(createReadStream(file)),
        }));
        let seen = 0;
        const slow = new Writable({
          highWaterMark: 1024,
          write(chunk: Buffer, _encoding, callback) {
            seen += chunk.length;
            if (seen > 1024 * 1024) controller.abort();
            setTimeout(callback, 1);
          },
        });
        await expect(
          pipeline(zipStream(entries, { signal: controller.signal }), slow),
        ).rejects.toThrow(/abort/i);
        await sleep(50);
        expect(await fds()).toBe(baseline);
      }
    });
  });
});

describe('Zip64 per entry, from the declared size', () => {
  /** The first bytes out: the entry's local header (its source never yields). */
  async function localHeaderOf(
    size: number,
    compress: boolean,
    forceZip64 = false,
  ): Promise<Buffer> {
    const source = new Readable({ read() {} });
    const entry: ZipEntry = {
      name: 'x',
      size,
      mtime: new Date(),
      compress,
      open: () => Promise.resolve(source),
    };
    const stream = zipStream([entry], { forceZip64 });
    try {
      return await new Promise<Buffer>((resolve, reject) => {
        stream.once('data', resolve);
        stream.once('error', reject);
      });
    } finally {
      stream.destroy();
      expect(source.destroyed).toBe(true);
    }
  }

  it.each([
    ['STORE below the threshold', 0xfff00000, false, false],
    ['STORE near 0xFFFFFFFF', 0xffffffff - 10, false, true],
    ['STORE of 4 GiB', 0x100000000, false, true],
    ['DEFLATE well below', 0xf0000000, true, false],
    ['DEFLATE that could expand past 0xFFFFFFFF', 0xfff00000, true, true],
    ['STORE of 1 byte, forced', 1, false, true],
  ])('%s', async (_title, size, compress, zip64) => {
    const header = await localHeaderOf(size, compress, _title.endsWith('forced'));
    expect(header.readUInt32LE(0)).toBe(0x04034b50);
    expect(header.readUInt16LE(4)).toBe(zip64 ? 45 : 20);
    expect(header.readUInt16LE(28)).toBe(zip64 ? 29 : 9); // extra field length
    expect(header.readUInt32LE(22)).toBe(zip64 ? 0xffffffff : 0);
  });
});

describe('entryBytesBound', () => {
  it('bounds the archive: sum of bounds + ARCHIVE_END_BOUND ≥ actual size', async () => {
    const entries: ZipEntry[] = [];
    let bound = ARCHIVE_END_BOUND;
    for (let i = 0; i < 40; i++) {
      const compress = i % 2 === 0;
      const size = [0, 1, 100, 16_383, 16_384, 65_536, 200_000, 1_000_000][i % 8] ?? 0;
      // Incompressible random bytes deflated are the worst case; text the common one.
      const data = i % 4 === 0 ? text(size) : randomBytes(size);
      const name = `${'é'.repeat(i)}/${i}.bin`;
      entries.push(memoryEntry(name, data, compress));
      bound += entryBytesBound({ name, size, compress });
    }
    for (const forceZip64 of [false, true]) {
      const file = await writeZip(dir, entries, { forceZip64 }, `bound-${forceZip64}.zip`);
      const actual = (await stat(file)).size;
      expect(actual).toBeLessThanOrEqual(bound);
    }
  });

  it('covers deflate of 8 MiB of random bytes', async () => {
    const data = randomBytes(8 * 1024 * 1024);
    const file = await writeZip(dir, [memoryEntry('r', data, true, undefined, [1_000_000])]);
    const actual = (await stat(file)).size;
    const bound =
      entryBytesBound({ name: 'r', size: data.length, compress: true }) + ARCHIVE_END_BOUND;
    expect(actual).toBeGreaterThan(data.length); // it did expand
    expect(actual).toBeLessThanOrEqual(bound);
    // and not by much: the bound is for planning, it should stay tight
    expect(bound - data.length).toBeLessThan(data.length / 500);
  });

  it('grows with the name in UTF-8 bytes', () => {
    const plain = entryBytesBound({ name: 'a', size: 10, compress: false });
    expect(entryBytesBound({ name: 'é', size: 10, compress: false })).toBe(plain + 2);
    expect(entryBytesBound({ name: 'a', size: 10, compress: true })).toBeGreaterThan(plain);
  });
});
