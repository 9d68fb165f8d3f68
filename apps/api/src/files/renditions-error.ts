export type RenditionFailure = 'tooManyPixels' | 'undecodable';

/** Why an upload gets no thumbnail; the caller records the reason and serves the original only. */
export class RenditionError extends Error {
  readonly reason: RenditionFailure;

  constructor(reason: RenditionFailure, options?: { message?: string; cause?: unknown }) {
    super(options?.message ?? reason, { cause: options?.cause });
    this.name = 'RenditionError';
    this.reason = reason;
  }
}

/** Checked against the size an image declares, before any pixel is decoded. */
export function assertPixelLimit(width: number, height: number, maxInputPixels: number): void {
  if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width < 1 || height < 1)
    throw new RenditionError('undecodable', { message: `invalid size ${width}×${height}` });
  if (width * height > maxInputPixels)
    throw new RenditionError('tooManyPixels', {
      message: `${width}×${height} exceeds ${maxInputPixels} pixels`,
    });
}
