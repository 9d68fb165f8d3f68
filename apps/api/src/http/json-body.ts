import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.js';

/**
 * How deeply a JSON body may nest arrays and objects. No request of the API needs more than a few
 * levels; a deeper body is refused before it is parsed, so no handler, schema or logger ever walks
 * (or serialises) a structure deep enough to overflow the stack.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** Whether `text` nests deeper than `max`, in one pass without recursion; brackets in strings are text. */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth++;
      if (depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/**
 * Replaces the JSON body parser of `app` (and so of every route under it) with Fastify's own,
 * behind the depth check: a body nested deeper than MAX_JSON_DEPTH is 400 invalidInput.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(
        new AppError('invalidInput', {
          message: `The body nests deeper than ${MAX_JSON_DEPTH} levels`,
        }),
        undefined,
      );
      return;
    }
    void parse(request, text, done);
  });
}
