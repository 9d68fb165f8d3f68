// heic-decode ships no types; this is the part of its API the renditions use.
declare module 'heic-decode' {
  export interface DecodedImage {
    width: number;
    height: number;
    /** RGBA, 8 bits per channel, rows packed. */
    data: Uint8ClampedArray;
  }

  /** A top-level image whose header has been read; `decode()` does the expensive part. */
  export interface PendingImage {
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }

  interface Decode {
    (input: { buffer: Uint8Array }): Promise<DecodedImage>;
    all(input: { buffer: Uint8Array }): Promise<PendingImage[] & { dispose(): void }>;
  }

  const decode: Decode;
  export default decode;
}
