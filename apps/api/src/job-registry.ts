/**
 * The composition root of background work, beside app.ts (the routes'): every job and schedule
 * the worker runs, gathered from the feature folders. `jobs/` itself is the queue and knows no
 * feature.
 */
import { purgeOauthJob, purgeOauthSchedule } from './auth/oauth/purge-oauth.job.js';
import { purgeSessionsJob, purgeSessionsSchedule } from './auth/purge-sessions.job.js';
import { passwordResetJob } from './auth/password-reset.job.js';
import { purgeRateLimitsJob, purgeRateLimitsSchedule } from './auth/purge-rate-limits.job.js';
import { verificationResendJob } from './auth/verification-resend.job.js';
import { sendRemindersJob, sendRemindersSchedule } from './collections/reminders.job.js';
import { sendDigestsJob, sendDigestsSchedule } from './digests/send-digests.job.js';
import { buildDownloadJob } from './downloads/build-download.job.js';
import { expireDownloadsJob, expireDownloadsSchedule } from './downloads/expire-downloads.job.js';
import { deleteFileObjectsJob } from './files/delete-file-objects.job.js';
import { encryptTeamFilesJob } from './files/encrypt-team.job.js';
import { renderFileJob } from './files/renditions.job.js';
import type { Config } from './config/config.js';
import type { Logger } from 'pino';
import type { Db } from './db/create-db.js';
import { purgeMailCopiesJob, purgeMailCopiesSchedule } from './mail/purge-mail-copies.job.js';
import { sendMailJob } from './mail/send-mail.job.js';
import type { Mailer } from './mail/mailer.js';
import type { Metrics } from './metrics/metrics.js';
import type { Storage } from './storage/storage.js';
import { deleteQueuedObjectsJob } from './storage/delete-queued.job.js';
import { sweepStorageTempJob, sweepStorageTempSchedule } from './storage/sweep-temp.job.js';
import {
  purgeSubscriptionsJob,
  purgeSubscriptionsSchedule,
} from './subscriptions/purge-subscriptions.job.js';
import { purgeTrashJob, purgeTrashSchedule } from './trash/purge-trash.job.js';
import { expireUploadsJob, expireUploadsSchedule } from './uploads/expire-uploads.job.js';
import { verifyStorageJob, verifyStorageSchedule } from './integrity/verify-storage.job.js';
import { purgeJobsJob, purgeJobsSchedule } from './jobs/purge-jobs.job.js';
import type { Clock } from './jobs/types.js';
import type { Schedule } from './jobs/worker.js';

/** What job handlers get: the same plain values as services, plus the mailer. */
export interface JobDeps {
  config: Config;
  db: Db;
  storage: Storage;
  clock: Clock;
  mailer: Mailer;
  metrics: Metrics;
  logger: Logger;
}

/** Every job the worker runs. A feature adds its jobs here. */
export const jobs = [
  sendMailJob,
  passwordResetJob,
  verificationResendJob,
  purgeJobsJob,
  sweepStorageTempJob,
  purgeOauthJob,
  purgeSessionsJob,
  purgeRateLimitsJob,
  renderFileJob,
  deleteFileObjectsJob,
  encryptTeamFilesJob,
  deleteQueuedObjectsJob,
  expireUploadsJob,
  buildDownloadJob,
  expireDownloadsJob,
  purgeSubscriptionsJob,
  purgeMailCopiesJob,
  purgeTrashJob,
  verifyStorageJob,
  sendRemindersJob,
  sendDigestsJob,
];

/**
 * Every recurring job. The storage integrity check (`verifyStorageSchedule`) is not among them: it
 * runs only when VERIFY_STORAGE_INTERVAL_HOURS is set, see `schedulesFor`.
 */
export const schedules: Schedule[] = [
  purgeJobsSchedule,
  sweepStorageTempSchedule,
  purgeOauthSchedule,
  purgeSessionsSchedule,
  purgeRateLimitsSchedule,
  expireUploadsSchedule,
  expireDownloadsSchedule,
  purgeSubscriptionsSchedule,
  purgeMailCopiesSchedule,
  purgeTrashSchedule,
  sendRemindersSchedule,
  sendDigestsSchedule,
];

/** The schedules a worker with this configuration registers. */
export function schedulesFor(config: Config): Schedule[] {
  const verify = verifyStorageSchedule(config);
  return verify ? [...schedules, verify] : schedules;
}
