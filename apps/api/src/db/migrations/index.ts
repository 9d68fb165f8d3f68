import type { Migration } from 'kysely';
import * as m0001 from './0001-jobs.js';
import * as m0002 from './0002-accounts-and-teams.js';
import * as m0003 from './0003-oauth-purge-indexes.js';
import * as m0004 from './0004-member-nickname-key.js';
import * as m0005 from './0005-collections-and-files.js';
import * as m0006 from './0006-uploads.js';
import * as m0007 from './0007-downloads.js';
import * as m0008 from './0008-subscriptions.js';
import * as m0009 from './0009-team-name-key.js';
import * as m0010 from './0010-upload-locks.js';
import * as m0011 from './0011-storage-deletions.js';
import * as m0012 from './0012-team-strip-location.js';
import * as m0013 from './0013-team-codes.js';
import * as m0014 from './0014-trash.js';
import * as m0015 from './0015-storage-verification.js';
import * as m0016 from './0016-second-factors.js';
import * as m0017 from './0017-session-devices.js';
import * as m0018 from './0018-collection-deadlines.js';
import * as m0019 from './0019-file-received-hash.js';
import * as m0021 from './0021-session-reauthentication.js';
import * as m0022 from './0022-member-digests.js';
import * as m0023 from './0023-upload-links.js';

/**
 * Migrations are listed here rather than read from the folder, so the same list runs from the
 * TypeScript sources (tests) and the compiled build. Never edit a migration that has shipped.
 */
export const migrations: Record<string, Migration> = {
  '0001-jobs': m0001,
  '0002-accounts-and-teams': m0002,
  '0003-oauth-purge-indexes': m0003,
  '0004-member-nickname-key': m0004,
  '0005-collections-and-files': m0005,
  '0006-uploads': m0006,
  '0007-downloads': m0007,
  '0008-subscriptions': m0008,
  '0009-team-name-key': m0009,
  '0010-upload-locks': m0010,
  '0011-storage-deletions': m0011,
  '0012-team-strip-location': m0012,
  '0013-team-codes': m0013,
  '0014-trash': m0014,
  '0015-storage-verification': m0015,
  '0016-second-factors': m0016,
  '0017-session-devices': m0017,
  '0018-collection-deadlines': m0018,
  '0019-file-received-hash': m0019,
  '0021-session-reauthentication': m0021,
  '0022-member-digests': m0022,
  '0023-upload-links': m0023,
};
