import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Server as TusServer } from '@tus/server';
import { ERRORS, StreamLimiter, type Upload } from '@tus/utils';

interface CancellationContext {
  signal: AbortSignal;
}

type WriteToStore = (
  webStream: ReadableStream | null,
  upload: Upload,
  maxBodySize: number,
  context: CancellationContext,
) => Promise<number>;

/**
 * @tus/server 2 reads a body as a web stream (srvx turns the Node request into one, tus turns it
 * back into a Node stream), which cost a third of a large upload's throughput in our benchmark.
 * Our routes always run on Node, so the two handlers that read bodies (PATCH, and POST with
 * creation-with-upload) get the Node request itself, with the same semantics as tus's own
 * `writeToStore`: a client that goes away ends the body cleanly, so the store keeps every byte
 * that arrived and the upload resumes from there. Relies on a protected method of @tus/server,
 * whose version is pinned; the upload tests exercise every path through it.
 */
export function readBodiesFromNode(tus: TusServer, requestOf: () => IncomingMessage): void {
  const store = tus.datastore;
  const writeToStore: WriteToStore = async (_webStream, upload, maxBodySize, context) => {
    // tus's own errors are plain answers, not Error objects.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (context.signal.aborted) throw ERRORS.ABORTED;
    const source = requestOf();
    const proxy = new PassThrough();
    let sourceError: unknown = null;
    const onSourceError = (error: unknown) => {
      sourceError = error;
      source.unpipe(proxy);
      if (!context.signal.aborted) proxy.destroy(error as Error);
    };
    source.on('error', onSourceError);
    const onAbort = () => {
      source.unpipe(proxy);
      if (!proxy.destroyed) proxy.end();
    };
    context.signal.addEventListener('abort', onAbort, { once: true });
    // A body longer than tus allows (chunked, so not known before): the store then fails with a
    // stream error of its own, but the answer is the limiter's 413.
    const limit: { error?: Error } = {};
    try {
      const limited = new StreamLimiter(maxBodySize);
      limited.once('error', (error: Error) => {
        limit.error = error;
      });
      const piped = pipeline(source.pipe(proxy), limited);
      // A failure there destroys `limited`, which fails the store's write with the same error.
      piped.catch(() => undefined);
      const offset = await store.write(limited, upload.id, upload.offset);
      await piped;
      return offset;
    } catch (error) {
      source.unpipe(proxy);
      const aborted = error instanceof Error && error.name === 'AbortError';

      if (limit.error) throw limit.error;
      throw (sourceError !== null && error === sourceError) || aborted ? ERRORS.ABORTED : error;
    } finally {
      source.off('error', onSourceError);
      context.signal.removeEventListener('abort', onAbort);
    }
  };
  for (const handler of [tus.handlers.PATCH, tus.handlers.POST]) {
    (handler as unknown as { writeToStore: WriteToStore }).writeToStore = writeToStore;
  }
}

/**
 * The request as tus sees it, minus the web-stream body nothing reads any more, and with the
 * method it stands for (a POST with X-HTTP-Method-Override is the method it names).
 */
export function withoutWebBody<T extends object>(request: T, as: { method: string }): T {
  return new Proxy(request, {
    get(target, property) {
      if (property === 'body') return null;
      if (property === 'method') return as.method;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}
