import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  oneLargeAtATime,
  assertPixelLimit,
  canRender,
  makeRenditions,
  RenditionError,
  type RenditionFailure,
} from './renditions.js';
import { makePdf } from './pdf.fixture.js';

const opts = { maxInputPixels: 100_000_000 };
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const fixture = (name: string) =>
  readFile(new URL(`../../test/fixtures/images/${name}`, import.meta.url));

/** A smooth 3-channel gradient with a red block in the top-left corner of the stored pixels. */
function gradient(width: number, height: number, frames = 1): Sharp {
  const data = Buffer.alloc(width * height * frames * 3);
  for (let y = 0; y < height * frames; y++)
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      const red = x < width / 4 && y % height < height / 4;
      data[o] = red ? 230 : (x * 255) / width;
      data[o + 1] = red ? 20 : ((y % height) * 255) / height;
      data[o + 2] = red ? 20 : 128;
    }
  return sharp(data, { raw: { width, height: height * frames, channels: 3, pageHeight: height } });
}

async function pixel(image: Buffer, x: number, y: number): Promise<number[]> {
  return [
    ...(await sharp(image)
      .extract({ ...corner, left: x, top: y })
      .raw()
      .toBuffer()),
  ];
}

const corner = { left: 0, top: 0, width: 1, height: 1 };

function distance(a: number[], b: number[]): number {
  return a.reduce((sum, v, i) => sum + Math.abs(v - (b[i] ?? 0)), 0);
}

/** Same channel count, and close: lossy WebP moves values a little. */
function expectNear(actual: number[], expected: number[], tolerance = 20): void {
  expect(actual).toHaveLength(expected.length);
  expect(distance(actual, expected), `${actual.join()} vs ${expected.join()}`).toBeLessThan(
    tolerance,
  );
}

async function failure(promise: Promise<unknown>): Promise<RenditionFailure> {
  const err: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RenditionError);
  return (err as RenditionError).reason;
}

/** A valid PNG header declaring width × height over a few bytes of compressed rows. */
function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc((width + 1) * 4))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('canRender', () => {
  it('accepts raster types and refuses SVG', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'])
      expect(canRender(type)).toBe(true);
    for (const type of ['image/tiff', 'image/heic', 'image/heif', 'IMAGE/JPEG; q=1'])
      expect(canRender(type)).toBe(true);
    // PDF: its first page, with pdf.js and @napi-rs/canvas (installed with the API).
    expect(canRender('application/pdf')).toBe(true);
    for (const type of ['image/svg+xml', 'text/plain', 'application/zip', ''])
      expect(canRender(type)).toBe(false);
  });
});

describe('makeRenditions', () => {
  const big = gradient(3000, 2000);
  it.each([
    ['image/jpeg', () => big.clone().jpeg()],
    ['image/png', () => big.clone().png()],
    ['image/webp', () => big.clone().webp()],
    ['image/tiff', () => big.clone().tiff()],
    ['image/avif', () => gradient(1800, 1200).avif({ effort: 0 })],
  ])('renders %s into a 320 px thumbnail and a 1600 px preview', async (type, encode) => {
    const input = await encode().toBuffer();
    const out = await makeRenditions(input, type, opts);
    const [thumb, preview] = await Promise.all([
      sharp(out.thumbnail).metadata(),
      sharp(out.preview).metadata(),
    ]);
    expect([thumb.format, preview.format]).toEqual(['webp', 'webp']);
    expect(Math.max(thumb.width, thumb.height)).toBe(320);
    expect(Math.max(preview.width, preview.height)).toBe(1600);
    expect(thumb.width / thumb.height).toBeCloseTo(1.5, 1);
    expect(out.width / out.height).toBeCloseTo(1.5, 5);
    expectNear(await pixel(out.thumbnail, 10, 10), [230, 20, 20], 30);
  });

  it('turns an EXIF-rotated JPEG upright and strips all metadata', async () => {
    const input = await gradient(600, 400).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect((await sharp(input).metadata()).exif).toBeDefined();
    const out = await makeRenditions(input, 'image/jpeg', opts);
    expect([out.width, out.height]).toEqual([400, 600]);
    const meta = await sharp(out.thumbnail).metadata();
    expect([meta.width, meta.height]).toEqual([213, 320]);
    for (const key of ['exif', 'icc', 'xmp', 'iptc', 'orientation'] as const)
      expect(meta[key], key).toBeUndefined();
    // Orientation 6 turns the picture clockwise: the stored top-left corner ends up top-right.
    expectNear(await pixel(out.thumbnail, 200, 10), [230, 20, 20]);
    expect((await pixel(out.thumbnail, 10, 10))[0]).toBeLessThan(100);
  });

  it('never enlarges a small image', async () => {
    const input = await gradient(100, 50).png().toBuffer();
    const out = await makeRenditions(input, 'image/png', opts);
    for (const image of [out.thumbnail, out.preview]) {
      const meta = await sharp(image).metadata();
      expect([meta.width, meta.height]).toEqual([100, 50]);
    }
  });

  it.each([
    ['image/gif', (s: Sharp) => s.gif()],
    ['image/webp', (s: Sharp) => s.webp()],
  ])('keeps only the first frame of an animated %s', async (type, encode) => {
    const frames = Buffer.concat([
      Buffer.alloc(200 * 100 * 3, Buffer.from([230, 20, 20])),
      Buffer.alloc(200 * 100 * 3, Buffer.from([20, 20, 230])),
    ]);
    const raw = { width: 200, height: 200, channels: 3 as const, pageHeight: 100 };
    const input = await encode(sharp(frames, { raw })).toBuffer();
    expect((await sharp(input).metadata()).pages).toBe(2);
    const out = await makeRenditions(input, type, opts);
    const meta = await sharp(out.preview).metadata();
    expect([meta.width, meta.height, meta.pages ?? 1]).toEqual([200, 100, 1]);
    expectNear(await pixel(out.preview, 100, 50), [230, 20, 20], 40);
  });

  it('keeps transparency and converts CMYK, 16-bit and ICC-tagged input to sRGB', async () => {
    const solid = (channels: 3 | 4) =>
      sharp({ create: { width: 64, height: 64, channels, background: '#c86432a0' } });
    const alpha = await makeRenditions(await solid(4).png().toBuffer(), 'image/png', opts);
    expectNear(await pixel(alpha.thumbnail, 5, 5), [200, 100, 50, 160]);
    const p3 = await solid(3).withIccProfile('p3').jpeg({ quality: 100 }).toBuffer();
    // Read without its profile, the P3 file holds other numbers than #c86432.
    const stored = await sharp(p3, { ignoreIcc: true }).extract(corner).raw().toBuffer();
    expect(distance([...stored], [200, 100, 50])).toBeGreaterThan(20);
    const inputs = [
      await solid(3).toColourspace('cmyk').jpeg({ quality: 100 }).toBuffer(),
      await solid(3).toColourspace('rgb16').png().toBuffer(),
      p3,
    ];
    for (const input of inputs) {
      const type = (await fileTypeFromBuffer(input))?.mime ?? '';
      const out = await makeRenditions(input, type, opts);
      // What sharp alone makes of it (its CMYK → sRGB without a profile is approximate).
      const expected = [...(await sharp(input).extract(corner).raw().toBuffer())];
      expect(expected).toHaveLength(3);
      expectNear(await pixel(out.thumbnail, 5, 5), expected, 12);
    }
  });

  it('refuses a PNG declaring 50,000 × 50,000 pixels quickly, without decoding it', async () => {
    const input = pngDeclaring(50_000, 50_000);
    expect(input.length).toBeLessThan(2_000);
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    expect(await failure(makeRenditions(input, 'image/png', opts))).toBe('tooManyPixels');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(200_000_000);
  });

  it('refuses garbage, a type that does not match the bytes, and SVG', async () => {
    const garbage = Buffer.from('definitely not a jpeg'.repeat(100));
    expect(await failure(makeRenditions(garbage, 'image/jpeg', opts))).toBe('undecodable');
    const png = await gradient(64, 64).png().toBuffer();
    expect(await failure(makeRenditions(png, 'image/jpeg', opts))).toBe('undecodable');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>');
    expect(await failure(makeRenditions(svg, 'image/png', opts))).toBe('undecodable');
    expect(await failure(makeRenditions(svg, 'image/svg+xml', opts))).toBe('undecodable');
    const truncated = (await gradient(300, 200).jpeg().toBuffer()).subarray(0, 2_000);
    expect(await failure(makeRenditions(truncated, 'image/jpeg', opts))).toBe('undecodable');
  });
});

describe('HEIC', () => {
  it('has a fixture that sniffs as image/heic', async () => {
    const sample = await fixture('sample.heic');
    expect(sample.length).toBeLessThan(100_000);
    expect(await fileTypeFromBuffer(sample)).toMatchObject({ mime: 'image/heic' });
  });

  it('applies irot once and ignores the EXIF orientation written next to it', async () => {
    // sample.heic stores a landscape picture with irot = 90° clockwise AND EXIF Orientation 6,
    // as iPhones do (see make-sample-heic.mjs): turned once it is portrait, red disc top right.
    const out = await makeRenditions(await fixture('sample.heic'), 'image/heic', opts);
    expect([out.width, out.height]).toEqual([480, 640]);
    const thumb = await sharp(out.thumbnail).metadata();
    expect(thumb).toMatchObject({ format: 'webp', width: 240, height: 320, hasAlpha: false });
    expect(thumb.exif).toBeUndefined();
    const preview = await sharp(out.preview).metadata();
    expect([preview.width, preview.height]).toEqual([480, 640]);
    expectNear(await pixel(out.thumbnail, 170, 70), [0xee, 0x22, 0x22], 40);
    expectNear(await pixel(out.thumbnail, 60, 250), [0xff, 0xdd, 0x22], 40);
  });

  it('refuses a HEIC declaring 50,000 × 50,000 pixels before decoding it', async () => {
    const input = Buffer.from(await fixture('sample.heic'));
    const ispe = input.indexOf('ispe', 0, 'latin1');
    input.writeUInt32BE(50_000, ispe + 8);
    input.writeUInt32BE(50_000, ispe + 12);
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    expect(await failure(makeRenditions(input, 'image/heic', opts))).toBe('tooManyPixels');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(200_000_000);
  });

  it('refuses a truncated HEIC and a JPEG labelled as HEIC', async () => {
    const sample = await fixture('sample.heic');
    expect(await failure(makeRenditions(sample.subarray(0, 900), 'image/heic', opts))).toBe(
      'undecodable',
    );
    const jpeg = await gradient(64, 64).jpeg().toBuffer();
    expect(await failure(makeRenditions(jpeg, 'image/heif', opts))).toBe('undecodable');
  });
});

describe('PDF', () => {
  it('draws the first page, white behind it, into a 320 px thumbnail and a 1600 px preview', async () => {
    const input = makePdf({ pages: 3 });
    expect((await fileTypeFromBuffer(input))?.mime).toBe('application/pdf');
    const out = await makeRenditions(input, 'application/pdf', opts);
    const [thumb, preview] = await Promise.all([
      sharp(out.thumbnail).metadata(),
      sharp(out.preview).metadata(),
    ]);
    expect([thumb.format, preview.format]).toEqual(['webp', 'webp']);
    // A4 portrait, 595 × 842 points: the long side is the height.
    expect([thumb.width, thumb.height]).toEqual([226, 320]);
    expect(preview.height).toBe(1600);
    expect([out.width, out.height]).toEqual([1131, 1600]);
    expect(thumb.hasAlpha).toBe(false);
    // The blue band at the top, the white page below it, and the line of text in black.
    expectNear(await pixel(out.thumbnail, 100, 20), [26, 102, 204], 30);
    expectNear(await pixel(out.thumbnail, 100, 250), [255, 255, 255], 15);
    const { data, info } = await sharp(out.preview)
      .extract({ left: 60, top: 460, width: 600, height: 80 })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.width * info.height).toBe(data.length);
    expect(Math.min(...data)).toBeLessThan(60);
  });

  it('draws a landscape page with its long side across', async () => {
    const out = await makeRenditions(makePdf({ width: 842, height: 595 }), 'application/pdf', opts);
    const meta = await sharp(out.thumbnail).metadata();
    expect([meta.width, meta.height]).toEqual([320, 226]);
  });

  it('refuses bytes that only start like a PDF, and a PDF cut short', async () => {
    expect(
      await failure(makeRenditions(Buffer.from('%PDF-1.7\nnothing else'), 'application/pdf', opts)),
    ).toBe('undecodable');
    const pdf = makePdf();
    expect(await failure(makeRenditions(pdf.subarray(0, 200), 'application/pdf', opts))).toBe(
      'undecodable',
    );
  });
});

describe('assertPixelLimit', () => {
  it('passes up to the limit and refuses beyond it or a nonsense size', () => {
    expect(() => assertPixelLimit(10_000, 10_000, 100_000_000)).not.toThrow();
    expect(() => assertPixelLimit(10_001, 10_000, 100_000_000)).toThrow(
      expect.objectContaining({ reason: 'tooManyPixels' }),
    );
    expect(() => assertPixelLimit(0, 10, 100)).toThrow(
      expect.objectContaining({ reason: 'undecodable' }),
    );
  });
});

describe('makeRenditions from a file', () => {
  /** `input` written to a file of a temp folder; the folder is removed after `use`. */
  async function fromFile<T>(input: Buffer, use: (file: string) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(path.join(tmpdir(), 'raccolta-renditions-'));
    try {
      const file = path.join(dir, 'original');
      await writeFile(file, input);
      return await use(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it.each([
    ['image/jpeg', () => gradient(1800, 1200).jpeg().withMetadata({ orientation: 6 }).toBuffer()],
    ['image/png', () => gradient(1800, 1200).ensureAlpha(0.5).png().toBuffer()],
    ['image/tiff', () => gradient(1800, 1200).tiff({ compression: 'none' }).toBuffer()],
    ['image/gif', () => gradient(200, 100, 2).gif().toBuffer()],
    ['image/avif', () => gradient(600, 400).avif({ effort: 0 }).toBuffer()],
    ['image/heic', () => fixture('sample.heic')],
    ['application/pdf', () => Promise.resolve(makePdf({ pages: 2 }))],
  ])('makes the same renditions of %s as from its bytes', async (type, encode) => {
    const input = await encode();
    const fromBytes = await makeRenditions(input, type, opts);
    const fromPath = await fromFile(input, (file) => makeRenditions(file, type, opts));
    expect(fromPath.width).toBe(fromBytes.width);
    expect(fromPath.height).toBe(fromBytes.height);
    expect(sha256(fromPath.thumbnail)).toBe(sha256(fromBytes.thumbnail));
    expect(sha256(fromPath.preview)).toBe(sha256(fromBytes.preview));
  });

  it('refuses the same files for the same reasons', async () => {
    const cases: [Buffer, string, RenditionFailure][] = [
      [pngDeclaring(50_000, 50_000), 'image/png', 'tooManyPixels'],
      [Buffer.from('definitely not a jpeg'.repeat(100)), 'image/jpeg', 'undecodable'],
      [await gradient(64, 64).png().toBuffer(), 'image/jpeg', 'undecodable'],
      [
        (await gradient(300, 200).jpeg().toBuffer()).subarray(0, 2_000),
        'image/jpeg',
        'undecodable',
      ],
      [(await fixture('sample.heic')).subarray(0, 900), 'image/heic', 'undecodable'],
      [await gradient(64, 64).jpeg().toBuffer(), 'image/heif', 'undecodable'],
      [Buffer.from('%PDF-1.7\nnothing else'), 'application/pdf', 'undecodable'],
      [makePdf().subarray(0, 200), 'application/pdf', 'undecodable'],
    ];
    for (const [[input, type, reason], i] of cases.map((c, i) => [c, i] as const))
      expect(
        await fromFile(input, (file) => failure(makeRenditions(file, type, opts))),
        `case ${i}: ${type} ${reason}`,
      ).toBe(reason);
  });

  it('calls a file that is gone undecodable', async () => {
    const gone = path.join(tmpdir(), `raccolta-gone-${process.pid}-${Date.now()}`);
    expect(await failure(makeRenditions(gone, 'image/jpeg', opts))).toBe('undecodable');
    expect(await failure(makeRenditions(gone, 'image/heic', opts))).toBe('undecodable');
  });
});

describe('large decodes', () => {
  it('run one at a time, in order, a failure ending its turn only', async () => {
    const events: string[] = [];
    let releaseFirst!: () => void;
    const first = oneLargeAtATime(async () => {
      events.push('first starts');
      await new Promise<void>((resolve) => {
        releaseFirst = resolve;
      });
      events.push('first ends');
      throw new Error('first failed');
    });
    const second = oneLargeAtATime(() => {
      events.push('second starts');
      return Promise.resolve(2);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The second waits while the first holds its turn.
    expect(events).toEqual(['first starts']);
    releaseFirst();
    await expect(first).rejects.toThrow('first failed');
    await expect(second).resolves.toBe(2);
    expect(events).toEqual(['first starts', 'first ends', 'second starts']);
  });
});
