import sharp from 'sharp';

/** Photos with a location for tests, and a reader of the location an image's EXIF holds. */

/** A real image with EXIF (Make "Raccolta") and a GPS position: 45°28'12.34" N, 9°11' E. */
export async function withGps(
  format: 'jpeg' | 'png' | 'webp' | 'heif',
  size = 32,
): Promise<Buffer> {
  const channels = 3;
  const pixels = Buffer.alloc(size * size * channels);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 37) & 255;
  const image = sharp(pixels, { raw: { width: size, height: size, channels } });
  const encoded = format === 'heif' ? image.heif({ compression: 'av1' }) : image[format]();
  return encoded
    .withExif({
      IFD0: { Make: 'Raccolta', Model: 'Test camera' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '45/1 28/1 1234/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '9/1 11/1 0/1',
      },
    })
    .toBuffer();
}

export interface GpsPosition {
  latitudeRef: string;
  longitudeRef: string;
  /** Degrees, minutes, seconds. */
  latitude: number[];
}

/**
 * The GPS position in an image's EXIF as sharp reads it (null without EXIF or without a GPS
 * IFD): a reader of its own, so a test of the stripper does not trust the stripper's parsing.
 */
export async function gpsOf(image: Buffer): Promise<GpsPosition | null> {
  const { exif } = await sharp(image).metadata();
  if (!exif) return null;
  const tiff = exif.subarray(exif.toString('latin1', 0, 4) === 'Exif' ? 6 : 0);
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const entries = (ifd: number) =>
    Array.from({ length: u16(ifd) }, (_, i) => {
      const at = ifd + 2 + i * 12;
      return { tag: u16(at), count: u32(at + 4), value: at + 8 };
    });
  const pointer = entries(u32(4)).find((e) => e.tag === 0x8825);
  if (!pointer) return null;
  const gps = entries(u32(pointer.value));
  const ascii = (tag: number) => {
    const entry = gps.find((e) => e.tag === tag);
    return entry ? tiff.toString('latin1', entry.value, entry.value + 1) : '';
  };
  const latitude = gps.find((e) => e.tag === 2);
  const rationals = latitude
    ? Array.from({ length: latitude.count }, (_, i) => {
        const at = u32(latitude.value) + i * 8;
        return u32(at) / u32(at + 4);
      })
    : [];
  return { latitudeRef: ascii(1), longitudeRef: ascii(3), latitude: rationals };
}
