import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import type { Db } from '../db/create-db.js';

export interface DatabaseLockerOptions {
  /**
   * How long a lock outlives its last renewal: the longest a request waits for a lock left by a
   * process that died holding it.
   */
  leaseMs?: number;
  /** How often a waiting request tries again, and a holder looks whether it is asked to let go. */
  pollMs?: number;
  /** How long a request waits for a lock before giving up (tus answers 500, the client retries). */
  acquireTimeoutMs?: number;
  /** Where a failed renewal is reported; the lease leaves time for the next one. */
  onError?: (err: unknown) => void;
}

/**
 * tus locks in the database (`UPLOAD_LOCKS=database`), so several API processes without sticky
 * sessions never run two requests on one upload at once; @tus/server's own locker only sees its
 * process. The behaviour is the same as that locker's: a request finding the upload locked asks
 * the holder to let go (tus then cancels the holder's request, typically one whose connection
 * died, and its lock is released) and waits for it. Across processes the asking is a flag on the
 * lock's row that the holder reads every `pollMs`, and a lock is a lease renewed while its request
 * runs, so one left by a process that died expires by itself.
 */
export class DatabaseLocker implements Locker {
  readonly leaseMs: number;
  readonly pollMs: number;
  readonly acquireTimeoutMs: number;
  readonly onError: (err: unknown) => void;

  constructor(
    readonly db: Db,
    options: DatabaseLockerOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 10_000;
    this.pollMs = options.pollMs ?? 200;
    this.acquireTimeoutMs = options.acquireTimeoutMs ?? 30_000;
    this.onError = options.onError ?? (() => undefined);
  }

  newLock(id: string): Lock {
    return new DatabaseLock(this, id);
  }
}

/** What @tus/server's own locker throws when it gives up: tus answers it (500). */
function lockTimeout(): never {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- tus's errors are plain objects it answers with
  throw ERRORS.ERR_LOCK_TIMEOUT;
}

class DatabaseLock implements Lock {
  private readonly holder = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private unlocked = false;

  constructor(
    private readonly locker: DatabaseLocker,
    private readonly uploadId: string,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.locker.acquireTimeoutMs;
    for (;;) {
      if (signal.aborted) lockTimeout();
      if (await this.tryAcquire()) break;
      await this.askHolderToRelease();
      if (Date.now() >= deadline) lockTimeout();
      try {
        await sleep(this.locker.pollMs, undefined, { signal });
      } catch {
        lockTimeout();
      }
    }
    this.watch(requestRelease);
  }

  async unlock(): Promise<void> {
    this.unlocked = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.locker.db
      .deleteFrom('upload_locks')
      .where('upload_id', '=', this.uploadId)
      .where('holder', '=', this.holder)
      .execute();
  }

  /**
   * Takes the lock if it is free or its lease ran out; the primary key lets only one win. A free
   * lock (every request but a contended one) costs one statement.
   */
  private async tryAcquire(): Promise<boolean> {
    if (await this.insert()) return true;
    const removed = await this.locker.db
      .deleteFrom('upload_locks')
      .where('upload_id', '=', this.uploadId)
      .where('expires_at', '<', Date.now())
      .executeTakeFirst();
    return Number(removed.numDeletedRows) > 0 && (await this.insert());
  }

  private async insert(): Promise<boolean> {
    const { db, leaseMs } = this.locker;
    const now = Date.now();
    const inserted = await db
      .insertInto('upload_locks')
      .values({
        upload_id: this.uploadId,
        holder: this.holder,
        expires_at: now + leaseMs,
        release_requested: 0,
      })
      .onConflict((conflict) => conflict.column('upload_id').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  private async askHolderToRelease(): Promise<void> {
    await this.locker.db
      .updateTable('upload_locks')
      .set({ release_requested: 1 })
      .where('upload_id', '=', this.uploadId)
      .where('holder', '!=', this.holder)
      .execute();
  }

  /**
   * While held: every `pollMs`, let go when asked or when the lock was lost (its lease ran out
   * and another request took it), and renew the lease a third of the way through it.
   */
  private watch(requestRelease: RequestRelease): void {
    const { db, leaseMs, pollMs, onError } = this.locker;
    let renewedAt = Date.now();
    let busy = false;
    const release = () => {
      clearInterval(this.timer);
      // A request that already ended has nothing to let go of.
      if (!this.unlocked) void Promise.resolve(requestRelease()).catch(onError);
    };
    this.timer = setInterval(() => {
      if (busy) return;
      busy = true;
      void (async () => {
        const row = await db
          .selectFrom('upload_locks')
          .select('release_requested')
          .where('upload_id', '=', this.uploadId)
          .where('holder', '=', this.holder)
          .executeTakeFirst();
        if (!row || row.release_requested) {
          release();
          return;
        }
        if (Date.now() - renewedAt >= leaseMs / 3) {
          const now = Date.now();
          await db
            .updateTable('upload_locks')
            .set({ expires_at: now + leaseMs })
            .where('upload_id', '=', this.uploadId)
            .where('holder', '=', this.holder)
            .execute();
          renewedAt = now;
        }
      })()
        .catch(onError)
        .finally(() => {
          busy = false;
        });
    }, pollMs);
    this.timer.unref();
  }
}
