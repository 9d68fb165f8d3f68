import { defaultOptions, Upload, type UploadOptions, type UrlStorage } from 'tus-js-client';
import { shouldRetryUpload, uploadFailureOf } from './upload-failure';
import {
  DEFAULT_CHUNK_SIZE,
  DEFAULT_PARALLEL,
  DEFAULT_RETRY_DELAYS,
  isActive,
  TERMINATE_RETRY_DELAYS,
  type TusQueueOptions,
  type UploadEntry,
} from './upload-entry';
import { fingerprintOf, forgetFingerprint, newestUpload } from './upload-storage';

export type {
  DuplicateCheck,
  DuplicateOf,
  TusQueueOptions,
  UploadEntry,
  UploadStatus,
} from './upload-entry';

/** Steps of half a percent: enough for a progress bar, few enough renders. */
const PROGRESS_STEPS = 200;

/**
 * Resumable uploads of one collection over tus: a few files at a time, each resumed from the
 * server's offset after a failure, a lost connection or a reload (the same file chosen again).
 * Plain TypeScript read through useSyncExternalStore, like the web app's UploadQueue.
 */
export class TusUploadQueue {
  private entries: readonly UploadEntry[] = [];
  private readonly files = new Map<number, File>();
  private readonly fingerprints = new Map<number, string>();
  private readonly running = new Map<number, Upload>();
  /** Files being hashed and looked up: they hold a slot as an upload does. */
  private readonly checking = new Set<number>();
  private readonly digests = new Map<number, string>();
  private waiting: number[] = [];
  private online: boolean;
  private stopped = false;
  private nextId = 1;
  private readonly listeners = new Set<() => void>();
  private readonly parallel: number;

  constructor(private readonly options: TusQueueOptions) {
    this.online = options.online ?? true;
    this.parallel = options.parallel ?? DEFAULT_PARALLEL;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): readonly UploadEntry[] => this.entries;

  /** Fingerprints of the files the queue holds and has not finished: not "interrupted". */
  busyFingerprints(): Set<string> {
    const busy = new Set<string>();
    for (const entry of this.entries) {
      const fingerprint = this.fingerprints.get(entry.id);
      if (fingerprint !== undefined && entry.status !== 'done') busy.add(fingerprint);
    }
    return busy;
  }

  /**
   * Queues the files; one already in the queue and not finished is not added twice. `resumeAs`
   * gives a file the fingerprint of the interrupted upload it was matched to (resume-match.ts),
   * so it continues that upload.
   */
  add(files: Iterable<File>, resumeAs?: ReadonlyMap<File, string>): void {
    if (this.stopped) return;
    const busy = this.busyFingerprints();
    const added: UploadEntry[] = [];
    for (const file of files) {
      const fingerprint = resumeAs?.get(file) ?? fingerprintOf(this.options.scope, file);
      if (busy.has(fingerprint)) continue;
      busy.add(fingerprint);
      const id = this.nextId++;
      this.files.set(id, file);
      this.fingerprints.set(id, fingerprint);
      this.waiting.push(id);
      added.push({
        id,
        name: file.name,
        size: file.size,
        status: 'queued',
        bytesSent: 0,
        resumed: false,
        failure: null,
        fileId: null,
        duplicateOf: null,
      });
    }
    if (added.length === 0) return;
    this.setEntries([...this.entries, ...added]);
    this.pump();
  }

  /** Tries a failed file again, from where the server's copy stopped. */
  retry(id: number): void {
    const entry = this.entry(id);
    if (entry?.status !== 'failed' || !this.files.has(id)) return;
    this.update(id, { status: 'queued', failure: null });
    this.waiting.push(id);
    this.pump();
  }

  /** Sends a file skipped as a duplicate all the same. */
  uploadAnyway(id: number): void {
    const entry = this.entry(id);
    if (entry?.status !== 'duplicate' || !this.files.has(id)) return;
    this.update(id, { status: 'queued', duplicateOf: null });
    this.waiting.push(id);
    this.pump();
  }

  /** Stops a file for good: its bytes on the server are deleted and it leaves the list. */
  async cancel(id: number): Promise<void> {
    const fingerprint = this.fingerprints.get(id);
    const upload = this.running.get(id);
    this.running.delete(id);
    this.checking.delete(id);
    this.digests.delete(id);
    this.waiting = this.waiting.filter((waiting) => waiting !== id);
    this.files.delete(id);
    this.fingerprints.delete(id);
    this.setEntries(this.entries.filter((entry) => entry.id !== id));
    this.pump();
    if (upload !== undefined) await upload.abort();
    if (fingerprint !== undefined) await this.terminateStored(fingerprint);
  }

  /** Terminates (tus DELETE) every stored attempt at a file and forgets them. */
  async terminateStored(fingerprint: string): Promise<void> {
    const storage = this.urlStorage();
    const entries = await storage.findUploadsByFingerprint(fingerprint);
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.uploadUrl !== null) {
          // Best effort: an upload the server no longer has expires there by itself.
          await Upload.terminate(entry.uploadUrl, {
            ...this.requestOptions(),
            retryDelays: TERMINATE_RETRY_DELAYS,
          }).catch(() => undefined);
        }
        await storage.removeUpload(entry.urlStorageKey);
      }),
    );
    this.options.onStorageChange?.();
  }

  /** Forgets every stored attempt at a file without asking the server (it no longer has it). */
  async forgetStored(fingerprint: string): Promise<void> {
    await forgetFingerprint(this.urlStorage(), fingerprint);
    this.options.onStorageChange?.();
  }

  /** Forgets the finished and failed files; those waiting or on their way stay. */
  clearFinished(): void {
    const kept = this.entries.filter((entry) => isActive(entry.status));
    for (const entry of this.entries) {
      if (!kept.includes(entry)) {
        this.files.delete(entry.id);
        this.fingerprints.delete(entry.id);
        this.digests.delete(entry.id);
      }
    }
    this.setEntries(kept);
    this.options.onStorageChange?.();
  }

  /**
   * Offline: what is on its way stops (the server keeps what it received) and waits; back
   * online: the paused files and those that failed for want of a connection continue.
   */
  setOnline(online: boolean): void {
    this.online = online;
    if (!online) {
      const paused = [...this.running.keys()];
      for (const id of paused) {
        void this.running.get(id)?.abort();
        this.running.delete(id);
        this.update(id, { status: 'paused' });
      }
      this.waiting.unshift(...paused);
      return;
    }
    for (const entry of this.entries) {
      const lostConnection =
        entry.status === 'failed' && entry.failure?.errorCode === 'noConnection';
      if (lostConnection && !this.waiting.includes(entry.id)) this.waiting.push(entry.id);
      if (entry.status === 'paused' || lostConnection) {
        this.update(entry.id, { status: 'queued', failure: null });
      }
    }
    this.pump();
  }

  /** Stops everything without deleting anything: the stored uploads resume another time. */
  stop(): void {
    this.stopped = true;
    this.waiting = [];
    this.checking.clear();
    for (const upload of this.running.values()) void upload.abort();
    this.running.clear();
  }

  private urlStorage(): UrlStorage {
    return this.options.urlStorage ?? defaultOptions.urlStorage;
  }

  private requestOptions(): UploadOptions {
    return {
      onBeforeRequest: async (request) => {
        request.setHeader('Authorization', await this.options.authorization());
      },
      ...(this.options.httpStack ? { httpStack: this.options.httpStack } : {}),
    };
  }

  /** The browser's word counts too: its offline event may still be on its way to us. */
  private isOnline(): boolean {
    return this.online && (typeof navigator === 'undefined' || navigator.onLine);
  }

  private entry(id: number): UploadEntry | undefined {
    return this.entries.find((entry) => entry.id === id);
  }

  private pump(): void {
    while (
      !this.stopped &&
      this.isOnline() &&
      this.running.size + this.checking.size < this.parallel
    ) {
      const id = this.waiting.shift();
      if (id === undefined) return;
      if (this.entry(id) === undefined) continue;
      void this.begin(id);
    }
  }

  /**
   * Hashes the file and looks it up (once: a retried or forced file keeps its digest). Answers
   * whether its upload goes ahead: not when skipped as a duplicate, cancelled or stopped. While
   * it goes ahead the file keeps its slot in `checking` until its upload takes it over.
   */
  private async check(id: number, file: File, checkDuplicate: TusQueueOptions['checkDuplicate']) {
    if (checkDuplicate === undefined) return true;
    this.checking.add(id);
    this.update(id, { status: 'hashing', failure: null });
    const result = await checkDuplicate(file).catch(() => null);
    // Cancelled (or the queue stopped) while it was hashed.
    if (!this.checking.has(id) || this.stopped) {
      this.checking.delete(id);
      return false;
    }
    if (result === null) return true;
    this.digests.set(id, result.sha256);
    if (result.match === null) return true;
    this.checking.delete(id);
    this.update(id, { status: 'duplicate', duplicateOf: result.match });
    this.pump();
    return false;
  }

  private async begin(id: number): Promise<void> {
    const file = this.files.get(id);
    const fingerprint = this.fingerprints.get(id);
    if (file === undefined || fingerprint === undefined) return;
    // Awaited only when there is something to check, so an upload takes its slot at once.
    if (this.options.checkDuplicate !== undefined && !this.digests.has(id)) {
      if (!(await this.check(id, file, this.options.checkDuplicate))) return;
    }
    const current = () => this.running.get(id) === upload;
    const metadata: Record<string, string> = {
      ...this.options.metadata?.(),
      filename: file.name,
    };
    // An empty value would be sent as a key without a value; the server sniffs the type anyway.
    if (file.type !== '') metadata.filetype = file.type;
    const sha256 = this.digests.get(id);
    if (sha256 !== undefined) metadata.sha256 = sha256;
    let step = -1;

    const upload: Upload = new Upload(file, {
      endpoint: this.options.endpoint,
      metadata,
      chunkSize: this.options.chunkSize ?? DEFAULT_CHUNK_SIZE,
      retryDelays: this.options.retryDelays ?? DEFAULT_RETRY_DELAYS,
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      fingerprint: () => Promise.resolve(fingerprint),
      ...this.requestOptions(),
      ...(this.options.urlStorage ? { urlStorage: this.options.urlStorage } : {}),
      onShouldRetry: (error) => shouldRetryUpload(error, this.isOnline()),
      onProgress: (sent, total) => {
        if (!current()) return;
        const next = total > 0 ? Math.floor((sent / total) * PROGRESS_STEPS) : PROGRESS_STEPS;
        if (next === step) return;
        step = next;
        this.update(id, { bytesSent: Math.min(sent, total) });
      },
      onUploadUrlAvailable: () => this.options.onStorageChange?.(),
      onSuccess: () => {
        if (!current()) return;
        this.running.delete(id);
        this.files.delete(id);
        this.digests.delete(id);
        const fileId = upload.url?.split('/').at(-1) ?? null;
        this.update(id, { status: 'done', bytesSent: file.size, fileId });
        // Earlier attempts at the same file (a duplicate entry) are finished too.
        void forgetFingerprint(this.urlStorage(), fingerprint).finally(() =>
          this.options.onStorageChange?.(),
        );
        if (fileId !== null) this.options.onUploaded(fileId);
        this.pump();
      },
      onError: (error) => {
        if (!current()) return;
        this.running.delete(id);
        const failure = uploadFailureOf(error);
        if (failure.errorCode === 'noConnection' && !this.isOnline()) {
          this.update(id, { status: 'paused' });
          this.waiting.unshift(id);
        } else {
          this.update(id, { status: 'failed', failure });
          // Refused for good: nothing stored is worth resuming.
          if (!failure.retryable) void forgetFingerprint(this.urlStorage(), fingerprint);
        }
        this.options.onStorageChange?.();
        this.pump();
      },
    });

    this.checking.delete(id);
    this.running.set(id, upload);
    this.update(id, { status: 'uploading', failure: null });
    let previous = null;
    try {
      previous = newestUpload(await upload.findPreviousUploads());
    } catch {
      // Unreadable storage: the file starts afresh.
    }
    if (!current()) return;
    if (previous !== null) {
      upload.resumeFromPreviousUpload(previous);
      this.update(id, { resumed: true });
    }
    upload.start();
  }

  private update(id: number, patch: Partial<UploadEntry>): void {
    this.setEntries(
      this.entries.map((entry) => (entry.id === id ? { ...entry, ...patch } : entry)),
    );
  }

  private setEntries(entries: readonly UploadEntry[]): void {
    this.entries = entries;
    for (const listener of this.listeners) listener();
  }
}
