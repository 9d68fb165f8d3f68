import { AsyncLocalStorage } from 'node:async_hooks';
import type { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';

export type LogFormat = 'auto' | 'json' | 'pretty';

/**
 * The request a piece of work runs for (app.ts enters it for every request): the lines services
 * write through `ctx.logger` carry its id as `reqId`, as Fastify's request logger's do, so one
 * request can be followed from the proxy's log through every line of the node.
 */
export const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/** `auto`: readable lines on a terminal, JSON lines (for a log collector) anywhere else. */
export function resolveLogFormat(format: LogFormat, isTerminal: boolean): 'json' | 'pretty' {
  if (format !== 'auto') return format;
  return isTerminal ? 'pretty' : 'json';
}

export interface LoggerOptions {
  level: string;
  format: LogFormat;
  /** Where lines go; standard output by default. */
  destination?: Writable & { isTTY?: boolean };
}

/**
 * The process's logger. Pretty lines are formatted in the same thread (pino-pretty as a stream,
 * synchronously), so nothing is lost when the process exits right after a line.
 */
export function createLogger({
  level,
  format,
  destination = process.stdout,
}: LoggerOptions): Logger {
  const options = {
    level,
    redact: ['req.headers.authorization'],
    // Fastify's request logger binds `reqId` itself; other lines get it from the scope.
    mixin: (_object: object, _level: number, logger: Logger) => {
      const scope = requestScope.getStore();
      return scope && !('reqId' in logger.bindings()) ? { reqId: scope.requestId } : {};
    },
  };
  if (resolveLogFormat(format, destination.isTTY === true) === 'json') {
    return destination === process.stdout ? pino(options) : pino(options, destination);
  }
  const pretty = pinoPretty({
    destination,
    sync: true,
    colorize: destination.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    singleLine: false,
  });
  return pino(options, pretty);
}
