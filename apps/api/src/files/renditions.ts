import sharp, { type ResizeOptions, type Sharp } from 'sharp';
import { decodeHeic, type RgbaImage } from './heic.js';
import { canRenderPdf, renderPdfFirstPage } from './pdf.js';
import { assertPixelLimit, RenditionError } from './renditions-error.js';

export { assertPixelLimit, RenditionError, type RenditionFailure } from './renditions-error.js';

export const RENDITION_SIZES = { thumbnail: 320, preview: 1600 } as const;
export type RenditionKind = keyof typeof RENDITION_SIZES;

export interface RenditionOptions {
  maxInputPixels: number;
}

export interface Renditions {
  thumbnail: Buffer;
  preview: Buffer;
  /** Size of the source once oriented upright. */
  width: number;
  height: number;
}

// Content type (as sniffed) → the format sharp must find in the bytes. Requiring the match keeps
// sharp's other decoders (SVG, PDF…) out of reach of a file that claims to be a JPEG.
const SHARP_FORMATS: ReadonlyMap<string, string> = new Map([
  ['image/jpeg', 'jpeg'],
  ['image/png', 'png'],
  ['image/webp', 'webp'],
  ['image/gif', 'gif'],
  ['image/avif', 'heif'],
  ['image/tiff', 'tiff'],
]);
const HEIF_TYPES: ReadonlySet<string> = new Set(['image/heic', 'image/heif']);
const PDF_TYPE = 'application/pdf';

// Bounded by maxInputPixels already; this only guards against a decoder stuck on crafted input.
const PIPELINE_TIMEOUT_SECONDS = 60;

/**
 * Content types we make thumbnails for (after sniffing). Not SVG: it is a document, not pixels.
 * PDF (its first page) where the PDF renderer loads; elsewhere PDFs keep their type icon.
 */
export function canRender(contentType: string): boolean {
  const type = baseType(contentType);
  return SHARP_FORMATS.has(type) || HEIF_TYPES.has(type) || (type === PDF_TYPE && canRenderPdf());
}

/**
 * Makes the WebP thumbnail and preview of an uploaded image: upright, metadata stripped (sharp
 * writes none unless asked), first frame only, never enlarged. Throws RenditionError for input
 * that is too large or not an image of the stated type.
 *
 * `input` is the image's bytes or the path of a file holding them. A path keeps memory bounded:
 * sharp reads the file as it decodes, and the HEIC decoder and the PDF renderer read it in their
 * own threads.
 */
export async function makeRenditions(
  input: Buffer | string,
  contentType: string,
  opts: RenditionOptions,
): Promise<Renditions> {
  const type = baseType(contentType);
  try {
    let source: Source;
    if (HEIF_TYPES.has(type)) source = await heifSource(input, opts);
    else if (type === PDF_TYPE) source = await pdfSource(input, opts);
    else source = await sharpSource(input, type, opts);
    const pixels = source.width * source.height;
    const made = await (pixels > LARGE_DECODE_PIXELS
      ? oneLargeAtATime(() => render(source.pipeline))
      : render(source.pipeline));
    return { ...made, width: source.width, height: source.height };
  } catch (err) {
    if (err instanceof RenditionError) throw err;
    // sharp's limitInputPixels backs up the header check; its error carries no code, only text.
    const tooLarge = err instanceof Error && /pixel limit/i.test(err.message);
    throw new RenditionError(tooLarge ? 'tooManyPixels' : 'undecodable', {
      message: err instanceof Error ? err.message : String(err),
      cause: err,
    });
  }
}

/**
 * Images above this many pixels are decoded one at a time in a process, whatever the worker's
 * concurrency: libvips holds a large decode's working memory (~300 MB for 50 megapixels) until
 * it ends, and two at once doubled the process's growth (docs/benchmarks.md, "Rendition
 * memory"). Most photos from a phone (12–24 megapixels) stay below it and render side by side.
 */
export const LARGE_DECODE_PIXELS = 32_000_000;

let largeDecodes: Promise<unknown> = Promise.resolve();

/** Runs `work` after every large decode queued before it has ended, failed or not. */
export function oneLargeAtATime<T>(work: () => Promise<T>): Promise<T> {
  const turn = largeDecodes.then(work, work);
  largeDecodes = turn.catch(() => undefined);
  return turn;
}

interface Source {
  pipeline: Sharp;
  width: number;
  height: number;
}

async function sharpSource(
  input: Buffer | string,
  type: string,
  opts: RenditionOptions,
): Promise<Source> {
  const format = SHARP_FORMATS.get(type);
  if (!format) throw new RenditionError('undecodable', { message: `cannot render ${type}` });
  const options = { limitInputPixels: opts.maxInputPixels };
  // Header only: the size check below runs before any pixel is decoded.
  const meta = await sharp(input, options).metadata();
  if (meta.format !== format)
    throw new RenditionError('undecodable', { message: `${type} holds ${meta.format}` });
  assertPixelLimit(meta.width, meta.height, opts.maxInputPixels);
  return {
    // Without `animated`/`pages`, sharp reads the first frame only.
    pipeline: sharp(input, options).autoOrient(),
    width: meta.autoOrient.width,
    height: meta.autoOrient.height,
  };
}

async function heifSource(input: Buffer | string, opts: RenditionOptions): Promise<Source> {
  return rgbaSource(await decodeHeic(input, opts.maxInputPixels), opts);
}

/** The first page, drawn at the preview's size: the page is the picture a viewer would show. */
async function pdfSource(input: Buffer | string, opts: RenditionOptions): Promise<Source> {
  const image = await renderPdfFirstPage(input, RENDITION_SIZES.preview, opts.maxInputPixels);
  return rgbaSource(image, opts);
}

function rgbaSource(image: RgbaImage, opts: RenditionOptions): Source {
  const raw = { width: image.width, height: image.height, channels: 4 as const };
  // Decoded pixels, upright already (libheif applies the HEIF transforms, see heic.ts), no EXIF.
  const pipeline = sharp(image.data, { raw, limitInputPixels: opts.maxInputPixels });
  return {
    pipeline: image.hasAlpha ? pipeline : pipeline.removeAlpha(),
    width: image.width,
    height: image.height,
  };
}

/**
 * Decodes once: the source is shrunk to the preview size into raw pixels, and both WebPs are made
 * from those. sharp's clone() would not help: each clone of a Buffer input decodes it again
 * (measured: twice the CPU). A JPEG still gets shrink-on-load for the preview size.
 */
async function render(source: Sharp): Promise<Pick<Renditions, 'thumbnail' | 'preview'>> {
  const { data, info } = await source
    .resize(box(RENDITION_SIZES.preview))
    // sharp's default output is 8-bit sRGB, raw included: CMYK, 16-bit and ICC-tagged input are
    // converted here, so the second step can read the pixels back as plain sRGB(A).
    .raw()
    .timeout({ seconds: PIPELINE_TIMEOUT_SECONDS })
    .toBuffer({ resolveWithObject: true });
  const fromRaw = () =>
    sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const [preview, thumbnail] = await Promise.all([
    fromRaw().webp().toBuffer(),
    fromRaw().resize(box(RENDITION_SIZES.thumbnail)).webp().toBuffer(),
  ]);
  return { thumbnail, preview };
}

function box(size: number): ResizeOptions {
  return { width: size, height: size, fit: 'inside', withoutEnlargement: true };
}

function baseType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}
