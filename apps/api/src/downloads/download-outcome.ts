import type { Kysely } from 'kysely';
import { webLink } from '../auth/links.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { Clock } from '../jobs/types.js';
import { enqueueMail } from '../mail/send-mail.job.js';
import type { DownloadRow } from './downloads.presenter.js';
import {
  deletePlanRows,
  markFailedRow,
  markReadyRow,
  requesterOf,
} from './downloads.repository.js';

/** A database or a transaction: the outcome and its mail are written together. */
type Q = Kysely<Database>;

export interface OutcomeDeps {
  config: Config;
  clock: Clock;
}

async function requester(q: Q, download: DownloadRow) {
  const user = await requesterOf(q, download);
  if (!user?.email) return null;
  return {
    to: user.email,
    locale: user.locale === 'it' ? ('it' as const) : ('en' as const),
    name: user.nickname ?? undefined,
  };
}

/** Every part stored: the download is ready, its plan dropped, the requester told by e-mail. */
export async function markDownloadReady(
  q: Q,
  deps: OutcomeDeps,
  download: DownloadRow,
): Promise<void> {
  const { config, clock } = deps;
  const now = clock();
  const expiresAt = now + config.downloads.expiryMs;
  const ready = await markReadyRow(q, download.id, { now, expiresAt });
  if (!ready) return;
  await deletePlanRows(q, download.id, false);
  const to = await requester(q, download);
  if (!to) return;
  await enqueueMail(
    q,
    {
      ...to,
      template: 'downloadReady',
      vars: {
        collectionName: download.collection_name,
        link: webLink(config, `/teams/${download.team_id}/downloads/${download.id}/download`, {
          // Read by the sign-in page of a visitor not signed in: the mail's reader owns the name.
          collection: download.collection_name,
        }),
        name: to.name,
        parts: download.total_parts ?? ready.parts,
        expiresAt,
      },
    },
    clock,
  );
}

/**
 * Ends a build that will not be retried: `failed`, and the requester told by e-mail (they may
 * have left the page that was waiting), with a link back to the collection to ask again. Stored
 * parts go with the next sweep. Does nothing to a download no longer in progress.
 */
export async function markDownloadFailed(
  q: Q,
  deps: OutcomeDeps,
  downloadId: string,
  error: string,
): Promise<void> {
  const { config, clock } = deps;
  const download = await markFailedRow(q, downloadId, error, clock());
  if (!download) return;
  const to = await requester(q, download);
  if (!to) return;
  await enqueueMail(
    q,
    {
      ...to,
      template: 'downloadFailed',
      vars: {
        collectionName: download.collection_name,
        link: webLink(
          config,
          `/teams/${download.team_id}/collections/${download.collection_id}`,
          {},
        ),
        name: to.name,
      },
    },
    clock,
  );
}
