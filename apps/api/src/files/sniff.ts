import { fileTypeFromBuffer } from 'file-type';

/**
 * The content type of an upload, decided from its first bytes only: the client's Content-Type and
 * file name are claims an uploader controls, so they are never used.
 */

/** Enough for file-type's signatures (it reads at most 4100 bytes) and a text file's first tags. */
export const SNIFF_BYTES = 4100;

export interface SniffedType {
  contentType: string;
  /** Without the dot; null when the type has no usual one. */
  extension: string | null;
}

const OCTET_STREAM: SniffedType = { contentType: 'application/octet-stream', extension: null };
const PLAIN_TEXT: SniffedType = { contentType: 'text/plain', extension: 'txt' };
const SVG: SniffedType = { contentType: 'image/svg+xml', extension: 'svg' };
const HTML: SniffedType = { contentType: 'text/html', extension: 'html' };
const TIFF: SniffedType = { contentType: 'image/tiff', extension: 'tif' };

/**
 * The TIFF byte orders' signatures, classic and BigTIFF. file-type also reads a TIFF's first
 * directory (to tell camera raw formats apart), and many writers, libtiff and sharp among them,
 * put it after the pixels: beyond the head, file-type then answers nothing.
 */
function isTiffSignature(head: Buffer): boolean {
  if (head.length < 4) return false;
  const magic = head.subarray(0, 4).toString('latin1');
  return magic === 'II*\0' || magic === 'MM\0*' || magic === 'II+\0' || magic === 'MM\0+';
}

/**
 * `head` is the file's first SNIFF_BYTES bytes (or all of it); `complete` says whether it is the
 * whole file, so a multi-byte character cut at the end of a longer file still counts as text.
 */
export async function sniffContentType(head: Buffer, complete: boolean): Promise<SniffedType> {
  const known = await fileTypeFromBuffer(head);
  if (known) {
    // file-type calls any XML application/xml; an SVG is XML that a browser would run.
    if (known.mime === 'application/xml' && isSvgText(head.toString('utf8'))) return SVG;
    return { contentType: known.mime, extension: known.ext };
  }
  if (isTiffSignature(head)) return TIFF;
  const text = decodeUtf8(head, complete);
  if (text === null || text.includes('\0')) return OCTET_STREAM;
  if (isSvgText(text)) return SVG;
  if (isHtmlText(text)) return HTML;
  return PLAIN_TEXT;
}

/** The text of `bytes` when they are valid UTF-8 (an unfinished last character allowed), else null. */
function decodeUtf8(bytes: Buffer, complete: boolean): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: !complete });
  } catch {
    return null;
  }
}

/** Whitespace, processing instructions, comments and a DOCTYPE that may precede a root element. */
function skipProlog(text: string): string {
  let rest = text.replace(/^\uFEFF/, '');
  for (;;) {
    rest = rest.trimStart();
    const closer = rest.startsWith('<?')
      ? '?>'
      : rest.startsWith('<!--')
        ? '-->'
        : /^<!doctype/i.test(rest)
          ? doctypeCloser(rest)
          : null;
    const at = closer === null ? -1 : rest.indexOf(closer, 2);
    if (closer === null || at < 0) return rest;
    rest = rest.slice(at + closer.length);
  }
}

/** A DOCTYPE with an internal subset (`[ <!ENTITY …> ]`) ends at `]>`, not at its first `>`. */
function doctypeCloser(doctype: string): string {
  const bracket = doctype.indexOf('[');
  return bracket >= 0 && bracket < doctype.indexOf('>') ? ']>' : '>';
}

function isSvgText(text: string): boolean {
  return /^<(?:[\w-]+:)?svg[\s/>]/i.test(skipProlog(text));
}

/** The HTML signatures of the WHATWG MIME Sniffing standard (§7.1), after leading whitespace. */
const HTML_START =
  /^(?:<!doctype html|<html|<head|<script|<iframe|<h1|<div|<font|<table|<a|<style|<title|<b|<body|<br|<p|<!--)[\s>]/i;

function isHtmlText(text: string): boolean {
  return HTML_START.test(text.replace(/^\uFEFF/, '').trimStart());
}

/** Whether a sniffed type matches the allowed list: exact (`image/png`), a family (`image/*`) or `*\/*`. */
export function isTypeAllowed(contentType: string, allowed: readonly string[]): boolean {
  const type = contentType.toLowerCase();
  const family = type.split('/')[0] ?? '';
  return allowed.some((pattern) => {
    const p = pattern.trim().toLowerCase();
    return p === '*/*' || p === type || p === `${family}/*`;
  });
}
