/**
 * QR codes of upload links (issue #36): drawn by `qrcode` as SVG, loaded only where a code is
 * shown; the PNG is that SVG drawn on a canvas at a printable size.
 */

/** Pixels of the PNG: 10 cm wide at 300 dpi, sharp on a printed A4 or A5 sheet. */
export const QR_PNG_SIZE = 1200;

export async function qrSvg(url: string, width: number): Promise<string> {
  const qrcode = await import('qrcode');
  // Error correction M: a printed code still reads with a smudge or a fold.
  return qrcode.toString(url, { type: 'svg', margin: 2, width, errorCorrectionLevel: 'M' });
}

export const svgDataUrl = (svg: string) =>
  `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/** The SVG drawn on a white square canvas of `size` pixels, as a PNG. */
export async function svgToPng(svg: string, size: number, doc: Document = document): Promise<Blob> {
  const image = new Image(size, size);
  await new Promise<void>((resolve, reject) => {
    image.onload = () => resolve();
    image.onerror = () => reject(new Error('The QR code could not be drawn'));
    image.src = svgDataUrl(svg);
  });
  const canvas = doc.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext('2d');
  if (context === null) throw new Error('No canvas to draw the QR code on');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size, size);
  // Crisp modules: no smoothing between the code's squares.
  context.imageSmoothingEnabled = false;
  context.drawImage(image, 0, 0, size, size);
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The PNG could not be made'))),
      'image/png',
    );
  });
}

/** A file name from the link's name: letters, digits and dashes. */
export function qrFileName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `qr-${slug === '' ? 'upload-link' : slug}.png`;
}

/** Downloads the link's QR code as a PNG of QR_PNG_SIZE pixels. */
export async function downloadQrPng(url: string, name: string, doc: Document = document) {
  const png = await svgToPng(await qrSvg(url, QR_PNG_SIZE), QR_PNG_SIZE, doc);
  const href = URL.createObjectURL(png);
  try {
    const anchor = doc.createElement('a');
    anchor.href = href;
    anchor.download = qrFileName(name);
    anchor.hidden = true;
    doc.body.append(anchor);
    anchor.click();
    anchor.remove();
  } finally {
    // After the click has handed the blob to the download.
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  }
}

/** The link's address without the scheme: what the poster prints under the code. */
export function shortUrl(url: string): string {
  return url.replace(/^https?:\/\//, '');
}
