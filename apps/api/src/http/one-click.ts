import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';

/** The content types of an RFC 8058 one-click POST. */
export const ONE_CLICK_FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];
export const ONE_CLICK_BODY_LIMIT = 1024;

/** The fields of an RFC 8058 POST body (urlencoded or multipart/form-data). */
function formFields(contentType: string, body: string): Map<string, string> {
  if (contentType.startsWith('application/x-www-form-urlencoded'))
    return new Map(new URLSearchParams(body));
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  const fields = new Map<string, string>();
  if (!boundary) return fields;
  for (const part of body.split(`--${boundary}`).slice(1)) {
    const split = /\r?\n\r?\n/.exec(part);
    if (!split) continue;
    const name = /name="([^"]*)"/i.exec(part.slice(0, split.index))?.[1];
    if (name) fields.set(name, part.slice(split.index + split[0].length).replace(/\r?\n$/, ''));
  }
  return fields;
}

/**
 * RFC 8058: a mail client's one-click unsubscribe is a POST of the List-Unsubscribe URL with the
 * form body `List-Unsubscribe=One-Click`; the URL's query (these keys of it) is then the request.
 * Any other form body is refused.
 */
export function oneClickBody(
  request: FastifyRequest,
  body: string,
  keys: readonly string[],
): Record<string, unknown> {
  const fields = formFields(request.headers['content-type'] ?? '', body);
  if (fields.get('List-Unsubscribe') !== 'One-Click')
    throw new AppError('invalidRequest', {
      message: 'A form body must be List-Unsubscribe=One-Click (RFC 8058)',
    });
  const query = request.query as Record<string, unknown>;
  return Object.fromEntries(keys.map((key) => [key, query[key]]));
}
