import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { gpsOf, withGps } from './strip-location.fixture.js';
import { stripLocation } from './strip-location.js';

const XMP = (gps: string) =>
  `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreatorTool="Camera"${gps}/></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

async function pixels(image: Buffer): Promise<Buffer> {
  return sharp(image).raw().toBuffer();
}

describe('stripLocation', () => {
  for (const format of ['jpeg', 'png', 'webp', 'heif'] as const) {
    it(`removes the GPS IFD of a ${format} without touching a pixel or the rest of the EXIF`, async () => {
      const image = await withGps(format);
      const type = (await import('file-type')).fileTypeFromBuffer(image);
      const contentType = (await type)?.mime ?? '';
      expect(await gpsOf(image)).toMatchObject({ latitudeRef: 'N', longitudeRef: 'E' });

      const stripped = stripLocation(image, contentType);
      expect(stripped, contentType).not.toBeNull();
      if (!stripped) return;
      expect(stripped.length).toBe(image.length);
      expect(await gpsOf(stripped)).toBeNull();
      // The latitude's seconds (1234/100) are gone from the bytes, not only unlinked.
      for (const order of ['LE', 'BE'] as const) {
        const rational = Buffer.alloc(8);
        rational[`writeUInt32${order}`](1234, 0);
        rational[`writeUInt32${order}`](100, 4);
        expect(stripped.includes(rational)).toBe(false);
      }
      const metadata = await sharp(stripped).metadata();
      expect(metadata.exif?.toString('latin1')).toContain('Raccolta');
      if (format !== 'heif') expect(await pixels(stripped)).toEqual(await pixels(image));
      // The input is left as it was.
      expect(await gpsOf(image)).not.toBeNull();
      // Nothing left to remove.
      expect(stripLocation(stripped, contentType)).toBeNull();
    });
  }

  it('answers null for an image without a location and for other types', async () => {
    const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'Raccolta' } })
      .toBuffer();
    expect(stripLocation(plain, 'image/jpeg')).toBeNull();
    expect(stripLocation(await withGps('jpeg'), 'application/pdf')).toBeNull();
    expect(stripLocation(Buffer.from('not a jpeg'), 'image/jpeg')).toBeNull();
  });

  it('blanks the GPS properties of a JPEG XMP packet, leaving well-formed XML', () => {
    const gps = ' exif:GPSLatitude="45,28.2N" exif:GPSLongitude=\'9,11E\'';
    const xmp = Buffer.from(
      XMP(`${gps}><exif:GPSAltitude>12/1</exif:GPSAltitude></rdf:Description`).replace(
        '/></rdf:RDF>',
        '></rdf:RDF>',
      ),
      'utf8',
    );
    const header = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');
    const segment = Buffer.alloc(4);
    segment.writeUInt16BE(0xffe1, 0);
    segment.writeUInt16BE(2 + header.length + xmp.length, 2);
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8]),
      segment,
      header,
      xmp,
      Buffer.from([0xff, 0xd9]),
    ]);
    const stripped = stripLocation(jpeg, 'image/jpeg');
    expect(stripped).not.toBeNull();
    const text = stripped?.toString('utf8') ?? '';
    expect(text).not.toMatch(/GPS/);
    expect(text).toContain('xmp:CreatorTool="Camera"');
    expect(text).toContain('</rdf:Description></rdf:RDF>');
    expect(stripped?.length).toBe(jpeg.length);
  });

  it('survives truncated and malformed metadata without throwing', async () => {
    const image = await withGps('jpeg');
    for (let cut = 4; cut < 400; cut += 7) {
      expect(() => stripLocation(image.subarray(0, cut), 'image/jpeg')).not.toThrow();
    }
    const png = await withGps('png');
    for (let cut = 8; cut < png.length; cut += 11) {
      expect(() => stripLocation(png.subarray(0, cut), 'image/png')).not.toThrow();
    }
  });
});
