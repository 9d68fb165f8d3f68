import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RgbaImage } from './heic.js';
import { RenditionError } from './renditions-error.js';
import { runInThread } from './run-in-thread.js';

/** A first page that takes longer than this to render is abandoned (its thread is terminated). */
const RENDER_TIMEOUT_MS = 60_000;
/** The thread's JavaScript heap: a crafted document ends the thread, not the process. */
const WORKER_HEAP_MB = 512;

type WorkerAnswer =
  | { ok: true; width: number; height: number; data: Uint8ClampedArray }
  | { ok: false; message: string };

/**
 * The renderer's thread, as CommonJS source (eval workers take no file, so the same code runs from
 * the TypeScript sources and from the build). pdf.js parses the document and draws its first page
 * on a canvas of @napi-rs/canvas (Skia, prebuilt in its npm package), white behind it as a
 * viewer shows it; no script of the document runs (`isEvalSupported: false`, and pdf.js runs no
 * document JavaScript without a viewer). Embedded images larger than `maxImageSize` pixels are
 * not decoded.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { createCanvas } = require(workerData.canvasPath);
  const pdfjs = await import(workerData.pdfjsUrl);
  const input = typeof workerData.input === 'string'
    ? require('node:fs').readFileSync(workerData.input)
    : workerData.input;
  const task = pdfjs.getDocument({
    data: new Uint8Array(input.buffer, input.byteOffset, input.byteLength),
    isEvalSupported: false,
    useSystemFonts: false,
    standardFontDataUrl: workerData.fontsPath,
    maxImageSize: workerData.maxInputPixels,
    verbosity: 0,
  });
  const doc = await task.promise;
  try {
    const page = await doc.getPage(1);
    const base = page.getViewport({ scale: 1 });
    const scale = workerData.size / Math.max(base.width, base.height);
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.round(viewport.width));
    const height = Math.max(1, Math.round(viewport.height));
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    await page.render({ canvas, canvasContext: context, viewport }).promise;
    // Copied into memory of this thread's own: the canvas's pixels may sit in a buffer the
    // native module owns, which Node 24 refuses to transfer ("unsupported type").
    const data = new Uint8ClampedArray(context.getImageData(0, 0, width, height).data);
    parentPort.postMessage({ ok: true, width, height, data }, [data.buffer]);
  } finally {
    await doc.destroy();
  }
})().catch((error) => {
  parentPort.postMessage({ ok: false, message: String((error && error.message) || error) });
});
`;

interface RendererModules {
  pdfjsUrl: string;
  canvasPath: string;
  fontsPath: string;
}

let modules: RendererModules | null | undefined;

/**
 * pdf.js and the canvas, when installed and loadable on this platform (@napi-rs/canvas ships
 * prebuilt binaries for the usual ones only). Without them PDFs keep their type icon.
 */
function rendererModules(): RendererModules | null {
  if (modules !== undefined) return modules;
  try {
    const require = createRequire(import.meta.url);
    const pdfjsPath = require.resolve('pdfjs-dist/legacy/build/pdf.mjs');
    const canvasPath = require.resolve('@napi-rs/canvas');
    // Loads the native module once here: a platform without a binary answers false, not a
    // failed rendition for every PDF.
    require(canvasPath);
    const root = path.resolve(path.dirname(pdfjsPath), '..', '..');
    modules = {
      pdfjsUrl: pathToFileURL(pdfjsPath).href,
      canvasPath,
      fontsPath: `${path.join(root, 'standard_fonts')}${path.sep}`,
    };
  } catch {
    modules = null;
  }
  return modules;
}

/** Whether first pages of PDFs can be rendered here. */
export function canRenderPdf(): boolean {
  return rendererModules() !== null;
}

/**
 * Renders the first page of a PDF to RGBA, its longer side `size` pixels, in a worker thread of
 * its own: parsing and drawing are synchronous JavaScript that would stall every request of an API
 * process running the inline worker, and a thread's memory is given back when it ends.
 *
 * pdf.js needs the whole document in memory (its range loading still allocates the file's length),
 * so the thread holds it: `input` is the bytes, or the path of a file the thread reads itself.
 */
export async function renderPdfFirstPage(
  input: Buffer | string,
  size: number,
  maxInputPixels: number,
): Promise<RgbaImage> {
  const found = rendererModules();
  if (found === null) throw new RenditionError('undecodable', { message: 'no PDF renderer' });
  const answer = await runRenderer({ ...found, input, size, maxInputPixels });
  if (!answer.ok) throw new RenditionError('undecodable', { message: answer.message });
  return { width: answer.width, height: answer.height, data: answer.data, hasAlpha: false };
}

function runRenderer(workerData: Record<string, unknown>): Promise<WorkerAnswer> {
  return runInThread<WorkerAnswer>(WORKER_SOURCE, workerData, {
    timeoutMs: RENDER_TIMEOUT_MS,
    heapMb: WORKER_HEAP_MB,
    onTimeout: () => ({ ok: false, message: 'PDF rendering timed out' }),
    onExit: (code) => ({ ok: false, message: `PDF renderer exited with ${code}` }),
    // Out of heap, or the canvas failing to load in the thread: the document is not rendered.
    onError: (error) => ({ ok: false, message: error.message }),
  });
}
