import { createRequire } from 'node:module';
import { assertPixelLimit, RenditionError } from './renditions-error.js';
import { runInThread } from './run-in-thread.js';

export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8ClampedArray;
  hasAlpha: boolean;
}

/** A HEIC decode that runs longer than this is abandoned (its thread is terminated). */
const DECODE_TIMEOUT_MS = 60_000;

type WorkerAnswer =
  | { ok: true; width: number; height: number; data: Uint8ClampedArray }
  | { ok: false; reason: 'size'; width: number; height: number }
  | { ok: false; reason: 'undecodable'; message: string };

/**
 * The decoder's thread, as CommonJS source (eval workers take no file, so the same code runs from
 * the TypeScript sources and from the build). The declared size is checked before any pixel is
 * decoded; the main thread re-checks it with assertPixelLimit, the one rule.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const decode = require(workerData.modulePath);
(async () => {
  const input = typeof workerData.input === 'string'
    ? require('node:fs').readFileSync(workerData.input)
    : workerData.input;
  const images = await decode.all({ buffer: input });
  try {
    const first = images[0];
    if (!first) return parentPort.postMessage({ ok: false, reason: 'undecodable', message: 'no image in HEIF file' });
    if (!(first.width * first.height <= workerData.maxInputPixels))
      return parentPort.postMessage({ ok: false, reason: 'size', width: first.width, height: first.height });
    const { width, height, data } = await first.decode();
    parentPort.postMessage({ ok: true, width, height, data }, [data.buffer]);
  } finally {
    images.dispose();
  }
})().catch((error) => {
  parentPort.postMessage({ ok: false, reason: 'undecodable', message: String((error && error.message) || error) });
});
`;

const modulePath = createRequire(import.meta.url).resolve('heic-decode');

/**
 * Decodes the first top-level image of a HEIC/HEIF file (the primary one in camera files) to
 * RGBA. sharp's prebuilt libvips has no HEVC decoder (patents), so this goes through libheif
 * compiled to WebAssembly (heic-decode).
 *
 * Orientation: libheif applies the irot/imir/clap transforms while decoding, and the sizes it
 * reports are the transformed ones, so the pixels come out upright. The EXIF Orientation that
 * iPhones also write must NOT be applied on top (HEIF says irot wins); since the pixels reach
 * sharp raw, without the EXIF, nothing can apply it twice.
 *
 * Each decode runs in a worker thread of its own: the WebAssembly decode is synchronous (2–3 s of
 * CPU for 12 MP, see bench/thumbnails.bench.ts), which would stall every request of an API process
 * running the inline worker, and its heap grows to fit the largest image and never shrinks, which
 * ending the thread gives back. Starting a thread and compiling the module costs ~0.2 s, small
 * beside the decode.
 *
 * `input` is the file's bytes, or its path: then the thread reads the file itself, so the bytes
 * are never held by the calling thread nor copied into the worker's.
 */
export async function decodeHeic(
  input: Buffer | string,
  maxInputPixels: number,
): Promise<RgbaImage> {
  const answer = await runDecoder(input, maxInputPixels);
  if (!answer.ok && answer.reason === 'size') {
    assertPixelLimit(answer.width, answer.height, maxInputPixels);
    throw new RenditionError('tooManyPixels');
  }
  if (!answer.ok) throw new RenditionError('undecodable', { message: answer.message });
  const { width, height, data } = answer;
  return { width, height, data, hasAlpha: hasTransparentPixel(data) };
}

function runDecoder(input: Buffer | string, maxInputPixels: number): Promise<WorkerAnswer> {
  return runInThread<WorkerAnswer>(
    WORKER_SOURCE,
    { modulePath, input, maxInputPixels },
    {
      timeoutMs: DECODE_TIMEOUT_MS,
      onTimeout: () => ({ ok: false, reason: 'undecodable', message: 'HEIC decode timed out' }),
      onExit: (code) => ({
        ok: false,
        reason: 'undecodable',
        message: `HEIC decoder exited with ${code}`,
      }),
    },
  );
}

// libheif always hands out RGBA; camera photos are opaque and should not become WebPs with an
// alpha plane. Stops at the first transparent pixel, so only opaque images pay the full scan.
function hasTransparentPixel(rgba: Uint8ClampedArray): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return true;
  return false;
}
