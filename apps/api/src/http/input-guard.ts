import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';

/**
 * Whether any string (key or value) in a parsed body, query or path holds NUL. Walks arrays and
 * objects (a stream or buffer body is left to its route), without recursion.
 */
export function holdsNul(input: unknown): boolean {
  const stack: unknown[] = [input];
  for (let i = 0; i < 100_000 && stack.length > 0; i++) {
    const node = stack.pop();
    if (typeof node === 'string') {
      if (node.includes('\u0000')) return true;
    } else if (Array.isArray(node)) {
      stack.push(...(node as unknown[]));
    } else if (node !== null && typeof node === 'object') {
      if (ArrayBuffer.isView(node) || typeof (node as { pipe?: unknown }).pipe === 'function')
        continue;
      for (const [key, value] of Object.entries(node)) {
        if (key.includes('\u0000')) return true;
        stack.push(value);
      }
    }
  }
  return false;
}

/**
 * No input of the API may carry NUL: PostgreSQL cannot store it in text, so a string holding one
 * would fail in the database (500) rather than be refused. The field schemas of the contracts
 * refuse it with the other control characters; this hook refuses it everywhere else too (query
 * strings, path parameters, free-form values) with 400 invalidInput, before validation.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    if (holdsNul(request.params) || holdsNul(request.query) || holdsNul(request.body)) {
      done(new AppError('invalidInput', { message: 'The request holds a NUL character' }));
      return;
    }
    done();
  });
}
