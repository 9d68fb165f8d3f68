import type { z } from 'zod';
import { defaultBackoff } from './backoff.js';
import type { Backoff, JobRun } from './types.js';

export interface JobSpec<D, O, I> {
  queue: string;
  /** Validates the stored payload before every run; a payload that fails it fails the job at once. */
  schema: z.ZodType<O, I>;
  /** Must be idempotent: a crash after the work and before completion runs it again. */
  handler: (deps: D, payload: O, job: JobRun) => Promise<void>;
  /** Used by `enqueueJob` and by schedules when the caller does not say. */
  maxAttempts?: number;
  backoff?: Backoff;
}

/**
 * A queue's handler with the payload type erased, so definitions needing different payloads (and
 * any subset of the worker's deps) fit in one list. `I` is what `enqueueJob` accepts.
 */
export interface JobDefinition<D, I = unknown> {
  readonly queue: string;
  readonly schema: z.ZodType<unknown, I>;
  readonly maxAttempts: number | undefined;
  readonly backoff: Backoff;
  /** Parses a stored payload (throws the ZodError) and binds it to the handler. */
  readonly prepare: (payload: unknown) => (deps: D, job: JobRun) => Promise<void>;
}

/** Every job a worker can run; `D` must offer what each of their handlers needs. */
export type JobRegistry<D> = readonly JobDefinition<D>[];

/** Thrown by a handler when retrying cannot help (e.g. the thing it works on is gone). */
export class PermanentJobError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

export function defineJob<D, O, I>(spec: JobSpec<D, O, I>): JobDefinition<D, I> {
  return {
    queue: spec.queue,
    schema: spec.schema,
    maxAttempts: spec.maxAttempts,
    backoff: spec.backoff ?? defaultBackoff,
    prepare(payload) {
      const parsed = spec.schema.parse(payload);
      return (deps, job) => spec.handler(deps, parsed, job);
    },
  };
}
