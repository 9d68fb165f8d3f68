import { afterEach, describe, expect, it, vi } from 'vitest';
import { QR_PNG_SIZE, qrFileName, qrSvg, shortUrl, svgToPng } from './qr-code';

const URL_OF_LINK = 'https://raccolta.example/upload/l/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

describe('QR codes of upload links', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('draws the link as an SVG of the width asked', async () => {
    const svg = await qrSvg(URL_OF_LINK, 600);
    expect(svg).toMatch(/^<svg[^>]*width="600"[^>]*height="600"/);
    expect(svg).toContain('<path');
  });

  it('turns the SVG into a PNG on a white canvas of the printable size', async () => {
    const drawn: unknown[][] = [];
    const context = {
      fillStyle: '',
      imageSmoothingEnabled: true,
      fillRect: vi.fn(),
      drawImage: (...args: unknown[]) => drawn.push(args),
    };
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(
      context as unknown as CanvasRenderingContext2D,
    );
    let canvasSize: [number, number] = [0, 0];
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (
      this: HTMLCanvasElement,
      callback: BlobCallback,
      type?: string,
    ) {
      canvasSize = [this.width, this.height];
      callback(new Blob(['png'], { type: type ?? '' }));
    });
    // jsdom loads no images: this one "loads" as soon as it has a source.
    class LoadingImage {
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      set src(value: string) {
        expect(value.startsWith('data:image/svg+xml')).toBe(true);
        queueMicrotask(() => this.onload?.());
      }
    }
    vi.stubGlobal('Image', LoadingImage);

    const png = await svgToPng(await qrSvg(URL_OF_LINK, QR_PNG_SIZE), QR_PNG_SIZE);
    expect(png.type).toBe('image/png');
    expect(canvasSize).toEqual([1200, 1200]);
    expect(context.fillStyle).toBe('#ffffff');
    expect(context.fillRect).toHaveBeenCalledWith(0, 0, 1200, 1200);
    expect(context.imageSmoothingEnabled).toBe(false);
    expect(drawn[0]?.slice(1)).toEqual([0, 0, 1200, 1200]);
  });

  it('names the file after the link and prints the address without its scheme', () => {
    expect(qrFileName('Guests at the Door!')).toBe('qr-guests-at-the-door.png');
    expect(qrFileName('Perché sì')).toBe('qr-perche-si.png');
    expect(qrFileName('***')).toBe('qr-upload-link.png');
    expect(shortUrl(URL_OF_LINK)).toBe(
      'raccolta.example/upload/l/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    );
  });
});
