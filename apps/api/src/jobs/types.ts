import type { Selectable } from 'kysely';
import type { JobsTable } from '../db/database.js';

/** Epoch milliseconds; injected so tests can move time without touching timers. */
export type Clock = () => number;

export type JobRow = Selectable<JobsTable>;
export type JobStatus = JobsTable['status'];

/** What a handler learns about the run it belongs to. */
export interface JobRun {
  id: string;
  queue: string;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  createdAt: number;
  /**
   * Aborted when this worker no longer owns the job (its lease was taken over, or `stop()` ran
   * out of time and released it). The job will run again elsewhere, so the handler should give up.
   */
  signal: AbortSignal;
}

/** Milliseconds to wait before the next run, given the number of the run that just failed. */
export type Backoff = (attempt: number) => number;
