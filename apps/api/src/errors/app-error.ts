import { ERROR_STATUS, type ErrorCode } from '@raccolta/contracts';

export interface AppErrorOptions {
  message?: string;
  data?: Record<string, unknown>;
  cause?: unknown;
}

/** The one error type services throw; the error handler turns it into `{ statusCode, errorCode, message }`. */
export class AppError extends Error {
  readonly errorCode: ErrorCode;
  readonly statusCode: number;
  readonly data: Record<string, unknown> | undefined;

  constructor(errorCode: ErrorCode, opts: AppErrorOptions = {}) {
    super(opts.message ?? errorCode, { cause: opts.cause });
    this.name = 'AppError';
    this.errorCode = errorCode;
    this.statusCode = ERROR_STATUS[errorCode];
    this.data = opts.data;
  }
}
