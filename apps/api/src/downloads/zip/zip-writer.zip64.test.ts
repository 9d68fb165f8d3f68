import { randomBytes } from 'node:crypto';
import { open, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  endRecords,
  memoryEntry,
  pythonZipInfo,
  unzipTest,
  writeZip,
} from './zip-tools.fixture.js';
import type { ZipEntry } from './zip-writer.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'raccolta-zip64-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('zipStream past 4 GiB', () => {
  it('writes a stored 4 GiB + 1 MiB entry (Zip64 sizes, offsets and end record)', async () => {
    const block = randomBytes(MiB);
    const size = 4 * GiB + MiB;
    let produced = 0;
    let expectedCrc = 0;
    const big: ZipEntry = {
      name: 'big/video.mov',
      size,
      mtime: new Date('2025-01-02T03:04:05Z'),
      compress: false,
      open: () =>
        Promise.resolve(
          new Readable({
            highWaterMark: MiB,
            read() {
              if (produced === size) {
                this.push(null);
                return;
              }
              // A fresh buffer each time: were chunks kept, memory would grow by 4 GiB.
              const chunk = Buffer.allocUnsafe(block.length);
              block.copy(chunk);
              produced += chunk.length;
              expectedCrc = crc32(chunk, expectedCrc);
              this.push(chunk);
            },
          }),
        ),
    };
    const before = memoryEntry('before.txt', Buffer.from('before'), true);
    const after = memoryEntry('after.txt', Buffer.from('after the big one'), false);

    const timings: Record<string, number> = {};
    const rssBefore = process.resourceUsage().maxRSS * 1024;
    let started = performance.now();
    const file = await writeZip(dir, [before, big, after]);
    timings.write = performance.now() - started;
    const rssGrowth = process.resourceUsage().maxRSS * 1024 - rssBefore;

    try {
      started = performance.now();
      // Memory stays flat: a few chunks in flight, whatever the entry's size.
      expect(rssGrowth).toBeLessThan(256 * MiB);
      await unzipTest(file); // reads the 4 GiB and checks its CRC
      timings.unzip = performance.now() - started;

      started = performance.now();
      const info = await pythonZipInfo(file, 0);
      timings.zipfile = performance.now() - started;
      expect(
        info.map(({ name, size: s, compressSize, crc }) => ({ name, s, compressSize, crc })),
      ).toEqual([
        {
          name: 'before.txt',
          s: 6,
          compressSize: expect.any(Number) as number,
          crc: crc32('before'),
        },
        { name: 'big/video.mov', s: size, compressSize: size, crc: expectedCrc },
        { name: 'after.txt', s: 17, compressSize: 17, crc: crc32('after the big one') },
      ]);
      const [, bigInfo, afterInfo] = info;
      if (!bigInfo || !afterInfo) throw new Error('missing entries');
      // Central Zip64 extras: the big entry's two sizes (16 bytes); the last entry's offset (8).
      expect(bigInfo.version).toBe(45);
      expect(bigInfo.extra).toContain('01001000');
      expect(afterInfo.headerOffset).toBeGreaterThan(size);
      expect(afterInfo.version).toBe(45);
      expect(afterInfo.extra.slice(18, 26)).toBe('01000800');
      expect(await endRecords(file)).toMatchObject({ zip64: true, count: 3 });

      // The big entry's local header (Zip64 extra, 0xFFFFFFFF sizes) and 8-byte data descriptor.
      const handle = await open(file);
      try {
        const header = Buffer.alloc(30 + 13 + 29);
        await handle.read(header, 0, header.length, bigInfo.headerOffset);
        expect(header.readUInt32LE(0)).toBe(0x04034b50);
        expect(header.readUInt16LE(4)).toBe(45);
        expect([header.readUInt32LE(18), header.readUInt32LE(22)]).toEqual([
          0xffffffff, 0xffffffff,
        ]);
        expect(header.readUInt16LE(28)).toBe(29);
        expect(header.readUInt16LE(30 + 13 + 9)).toBe(0x0001);
        const descriptor = Buffer.alloc(24);
        await handle.read(descriptor, 0, 24, bigInfo.headerOffset + header.length + size);
        expect(descriptor.readUInt32LE(0)).toBe(0x08074b50);
        expect(descriptor.readUInt32LE(4)).toBe(expectedCrc);
        expect(Number(descriptor.readBigUInt64LE(8))).toBe(size);
        expect(Number(descriptor.readBigUInt64LE(16))).toBe(size);
      } finally {
        await handle.close();
      }
    } finally {
      await rm(file, { force: true });
      console.log(
        `4 GiB + 1 MiB stored entry: ${Object.entries(timings)
          .map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`)
          .join(', ')}; peak RSS growth while writing ${(rssGrowth / MiB).toFixed(0)} MiB`,
      );
    }
  }, 180_000);
});
