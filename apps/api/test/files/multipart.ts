import { randomBytes } from 'node:crypto';

/** One part of a multipart/form-data body, as a browser's FormData would send it. */
export interface Part {
  name: string;
  /** Present for a file part. */
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

/**
 * A multipart/form-data body built byte by byte, so tests control exactly what the server reads
 * (names with control characters, misleading content types). Like browsers, only `"`, CR and LF
 * of a name are percent-encoded; everything else goes raw as UTF-8.
 */
export function multipartBody(parts: Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----raccolta-test-${randomBytes(8).toString('hex')}`;
  const escape = (value: string) =>
    value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let disposition = `form-data; name="${escape(part.name)}"`;
    if (part.filename !== undefined) disposition += `; filename="${escape(part.filename)}"`;
    const headers = [`Content-Disposition: ${disposition}`];
    if (part.contentType !== undefined || part.filename !== undefined)
      headers.push(`Content-Type: ${part.contentType ?? 'application/octet-stream'}`);
    chunks.push(Buffer.from(`--${boundary}\r\n${headers.join('\r\n')}\r\n\r\n`, 'utf8'));
    chunks.push(typeof part.data === 'string' ? Buffer.from(part.data, 'utf8') : part.data);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** The usual upload: one part named `file`. */
export function fileBody(
  filename: string,
  data: Buffer | string,
  contentType = 'application/octet-stream',
) {
  return multipartBody([{ name: 'file', filename, contentType, data }]);
}
