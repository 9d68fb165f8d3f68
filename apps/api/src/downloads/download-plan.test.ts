import { describe, expect, it } from 'vitest';
import { planParts, type PlannedFile } from './download-plan.js';
import { ARCHIVE_END_BOUND, entryBytesBound } from './zip/index.js';

const MiB = 1024 * 1024;
const kB = 1000;

function photos(sizes: number[]): PlannedFile[] {
  return sizes.map((size, index) => ({
    id: `file-${index}`,
    name: `IMG_${index}.jpg`,
    size,
    contentType: 'image/jpeg',
  }));
}

/** Each part's files, by file id, in archive order. */
function partsOf(plan: ReturnType<typeof planParts>): string[][] {
  const out: string[][] = plan.parts.map(() => []);
  for (const entry of plan.entries) out[entry.part - 1]?.push(entry.fileId);
  return out;
}

/** What each part's zip can come to at most. */
function partBounds(plan: ReturnType<typeof planParts>, files: PlannedFile[]): number[] {
  const sizes = new Map(files.map((file) => [file.id, file.size]));
  const out = plan.parts.map(() => ARCHIVE_END_BOUND);
  for (const entry of plan.entries) {
    const size = sizes.get(entry.fileId) ?? 0;
    const bound = entryBytesBound({ name: entry.entryName, size, compress: entry.compress });
    out[entry.part - 1] = (out[entry.part - 1] ?? 0) + bound;
  }
  return out;
}

describe('planParts', () => {
  it('packs the largest files first into the fewest parts, not in upload order', () => {
    // In upload order: 400 | 700 + 300 | 600 would be three parts.
    const files = photos([400 * kB, 700 * kB, 300 * kB, 600 * kB]);
    const plan = planParts(files, 'Wedding', MiB);
    expect(plan.parts).toEqual([2, 2]);
    expect(partsOf(plan)).toEqual([
      ['file-1', 'file-2'],
      ['file-0', 'file-3'],
    ]);
    for (const bound of partBounds(plan, files)) expect(bound).toBeLessThanOrEqual(MiB);
  });

  it('keeps upload order inside a part, and puts each entry under the one folder', () => {
    const files = photos([100 * kB, 300 * kB, 200 * kB]);
    const plan = planParts(files, 'Wedding', MiB);
    expect(plan.parts).toEqual([3]);
    expect(plan.entries.map((entry) => entry.entryName)).toEqual([
      'Wedding/IMG_0.jpg',
      'Wedding/IMG_1.jpg',
      'Wedding/IMG_2.jpg',
    ]);
  });

  it('gives a file bigger than a part a part of its own, with nothing beside it', () => {
    const files = photos([200 * kB, 3 * MiB, 100 * kB, 2 * MiB]);
    const plan = planParts(files, 'Video', MiB);
    expect(partsOf(plan)).toEqual([['file-1'], ['file-3'], ['file-0', 'file-2']]);
  });

  it('never lets a part pass the limit, and uses no more parts than the bytes need', () => {
    // A deterministic spread of sizes, text (deflated, bounded above its size) among photos.
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const files: PlannedFile[] = Array.from({ length: 300 }, (_, index) => ({
      id: `file-${index}`,
      name: `doc-${index}.${index % 5 === 0 ? 'txt' : 'jpg'}`,
      size: Math.floor(next() * 600 * kB),
      contentType: index % 5 === 0 ? 'text/plain' : 'image/jpeg',
    }));
    const plan = planParts(files, 'Archive', 4 * MiB);
    const bounds = partBounds(plan, files);
    for (const bound of bounds) expect(bound).toBeLessThanOrEqual(4 * MiB);
    expect(plan.parts.reduce((sum, count) => sum + count, 0)).toBe(files.length);
    // No fewer parts could hold these bytes.
    const total = bounds.reduce((sum, bound) => sum + bound - ARCHIVE_END_BOUND, 0);
    expect(plan.parts).toHaveLength(Math.ceil(total / (4 * MiB - ARCHIVE_END_BOUND)));
    // No two parts could be merged into one.
    const sorted = [...bounds].sort((a, b) => a - b);
    expect((sorted[0] ?? 0) + (sorted[1] ?? 0) - ARCHIVE_END_BOUND).toBeGreaterThan(4 * MiB);
  });
});
