// Thumbnails per second: makeRenditions against sharp alone on the same photos in the same run.
// Goal: at least 0.8 of the baseline. Baseline = the naive way, two independent sharp pipelines
// (320 px and 1600 px WebP) per photo, run concurrently. Ratios here are images/s ÷ baseline
// images/s, so HIGHER IS BETTER (unlike the pagination ratios). Each photo is measured both ways
// back to back, alternating which goes first, so machine drift hits both sides alike.
// HEIC lines: decode + renditions of one camera-sized HEIC against a JPEG of the same pixels.
// `ms` is per image throughout.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp, { type ResizeOptions } from 'sharp';
import { decodeHeic } from '../src/files/heic.js';
import { makeRenditions, RENDITION_SIZES } from '../src/files/renditions.js';

const PHOTOS = 30;
const WIDTH = 4000;
const HEIGHT = 3000;
const HEIC_WIDTH = 4032;
const HEIC_HEIGHT = 3024;
const HEIC_RUNS = 2;
const opts = { maxInputPixels: 100_000_000 };
const SAMPLE_HEIC = new URL('../test/fixtures/images/sample.heic', import.meta.url);

export async function benchThumbnails(): Promise<{ name: string; ms: number; ratio: number }[]> {
  const texture = makeTexture(WIDTH + 400, HEIGHT + 300);
  const photos: Buffer[] = [];
  for (let i = 0; i < PHOTOS; i++) photos.push(await photo(texture, i));

  for (const warmUp of photos.slice(0, 1)) {
    await baseline(warmUp);
    await makeRenditions(warmUp, 'image/jpeg', opts);
  }
  let baselineMs = 0;
  let oursMs = 0;
  for (const [i, jpeg] of photos.entries()) {
    const runBaseline = async () => (baselineMs += await time(() => baseline(jpeg)));
    const runOurs = async () =>
      (oursMs += await time(() => makeRenditions(jpeg, 'image/jpeg', opts)));
    if (i % 2) await runBaseline().then(runOurs);
    else await runOurs().then(runBaseline);
  }

  const heic = await heicSample(texture);
  const jpegRun = () => makeRenditions(heic.jpeg, 'image/jpeg', opts);
  const heicRun = () => makeRenditions(heic.file, 'image/heic', opts);
  const decodeRun = () => decodeHeic(heic.file, opts.maxInputPixels);
  // The first HEIC call also compiles the WebAssembly module: done on the small fixture.
  await jpegRun();
  await decodeHeic(readFileSync(SAMPLE_HEIC), opts.maxInputPixels);
  let jpegMs = 0;
  let heicMs = 0;
  let decodeMs = 0;
  for (let i = 0; i < HEIC_RUNS; i++) {
    jpegMs += (await time(jpegRun)) / HEIC_RUNS;
    heicMs += (await time(heicRun)) / HEIC_RUNS;
    decodeMs += (await time(decodeRun)) / HEIC_RUNS;
  }

  const perPhoto = (ms: number) => ms / photos.length;
  const size = `${heic.width}×${heic.height}`;
  return [
    { name: 'sharp alone, 2 pipelines (baseline)', ms: perPhoto(baselineMs), ratio: 1 },
    {
      name: 'makeRenditions (img/s vs baseline)',
      ms: perPhoto(oursMs),
      ratio: baselineMs / oursMs,
    },
    { name: `JPEG ${size} (HEIC baseline)`, ms: jpegMs, ratio: 1 },
    { name: `HEIC ${size}${heic.encoded ? '' : ' fixture'}`, ms: heicMs, ratio: jpegMs / heicMs },
    { name: 'HEIC decode only (worker thread)', ms: decodeMs, ratio: jpegMs / decodeMs },
  ];
}

function baseline(jpeg: Buffer): Promise<Buffer[]> {
  const box = (size: number): ResizeOptions => ({
    width: size,
    height: size,
    fit: 'inside',
    withoutEnlargement: true,
  });
  return Promise.all([
    sharp(jpeg).rotate().resize(box(RENDITION_SIZES.thumbnail)).webp().toBuffer(),
    sharp(jpeg).rotate().resize(box(RENDITION_SIZES.preview)).webp().toBuffer(),
  ]);
}

interface Texture {
  data: Buffer;
  width: number;
  height: number;
}

/** Gradients, a fine pattern and sensor-like noise: compresses like a photo (~2 MB at q85). */
function makeTexture(width: number, height: number): Texture {
  const data = Buffer.alloc(width * height * 3);
  let seed = 0x9e3779b9;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      const noise = (seed & 31) - 16;
      const detail = 24 * Math.sin(x / 3.7) * Math.sin(y / 5.3);
      const o = (y * width + x) * 3;
      data[o] = 120 + 90 * Math.sin(x / 410) + detail + noise;
      data[o + 1] = 120 + 90 * Math.cos(y / 270 + x / 900) + noise;
      data[o + 2] = 60 + ((x + 2 * y) % 512) / 4 + detail / 2 + noise;
    }
  return { data, width, height };
}

/** A different crop of the texture for each photo, so no two inputs are the same. */
function photo(texture: Texture, i: number): Promise<Buffer> {
  const raw = { width: texture.width, height: texture.height, channels: 3 as const };
  return sharp(texture.data, { raw })
    .extract({ left: (i * 13) % 400, top: (i * 7) % 300, width: WIDTH, height: HEIGHT })
    .jpeg({ quality: 85 })
    .toBuffer();
}

interface HeicSample {
  file: Buffer;
  /** The same pixels as the HEIC, as a q85 JPEG. */
  jpeg: Buffer;
  width: number;
  height: number;
  encoded: boolean;
}

/** A camera-sized HEIC made with heif-enc if installed, else the (small) test fixture. */
async function heicSample(texture: Texture): Promise<HeicSample> {
  const raw = { width: texture.width, height: texture.height, channels: 3 as const };
  const crop = (width: number, height: number) =>
    sharp(texture.data, { raw }).extract({ left: 0, top: 0, width, height });
  const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-heic-'));
  try {
    // From PNG, so the HEIC does not inherit JPEG artefacts the JPEG side would not have.
    const png = path.join(dir, 'in.png');
    const out = path.join(dir, 'out.heic');
    await crop(HEIC_WIDTH, HEIC_HEIGHT).png({ compressionLevel: 1 }).toFile(png);
    // ultrafast: the default preset takes ~20 s of CPU here, and decoding cost barely differs.
    execFileSync('heif-enc', ['-q', '50', '-p', 'preset=ultrafast', png, '-o', out], {
      stdio: 'ignore',
    });
    const jpeg = await crop(HEIC_WIDTH, HEIC_HEIGHT).jpeg({ quality: 85 }).toBuffer();
    const file = readFileSync(out);
    return { file, jpeg, width: HEIC_WIDTH, height: HEIC_HEIGHT, encoded: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const file = readFileSync(SAMPLE_HEIC);
    const jpeg = await crop(480, 640).jpeg({ quality: 85 }).toBuffer();
    return { file, jpeg, width: 480, height: 640, encoded: false };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}
