export { defaultBackoff, exponentialBackoff, type ExponentialBackoffOptions } from './backoff.js';
export {
  defineJob,
  PermanentJobError,
  type JobDefinition,
  type JobRegistry,
  type JobSpec,
} from './define-job.js';
export {
  DEFAULT_MAX_ATTEMPTS,
  enqueue,
  enqueueJob,
  type EnqueueInput,
  type EnqueueJobInput,
  type JobsDb,
} from './enqueue.js';
export { purgeJobsJob, purgeJobsSchedule, type PurgeJobsDeps } from './purge-jobs.job.js';
export type { Backoff, Clock, JobRow, JobRun, JobStatus } from './types.js';
export {
  createWorker,
  scheduleDedupeKey,
  type Schedule,
  type Worker,
  type WorkerOptions,
} from './worker.js';
