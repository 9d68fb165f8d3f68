import type { FileItem } from '@raccolta/contracts';

/**
 * checking: hashed and looked up in the collection before it is sent; duplicate: the collection
 * holds the same bytes already, so it was skipped (uploadAnyway sends it all the same).
 */
export type UploadStatus = 'queued' | 'checking' | 'duplicate' | 'uploading' | 'done' | 'failed';

export const isUploadActive = (status: UploadStatus) =>
  status === 'queued' || status === 'checking' || status === 'uploading';

export interface UploadItem {
  id: number;
  name: string;
  size: number;
  status: UploadStatus;
  /** Whole percent of the bytes sent. */
  percent: number;
  /** What the failed attempt threw; null otherwise. */
  error: unknown;
}

export interface UploadQueueDeps {
  upload: (
    file: File,
    onProgress: (fraction: number) => void,
    signal: AbortSignal,
  ) => Promise<FileItem>;
  onUploaded: (file: FileItem) => void;
  /**
   * Whether the collection holds the same bytes already (the file's name there), asked before
   * each file is sent; when it fails the file is sent unchecked.
   */
  check?: (file: File) => Promise<{ match: { name: string } | null }>;
}

/**
 * Uploads files one at a time, in the order they were chosen, keeping each one's state for the
 * uploads panel. Plain TypeScript (read through useSyncExternalStore) so that progress events and
 * retries never race React's rendering, and so it is tested without a component.
 */
export class UploadQueue {
  private items: readonly UploadItem[] = [];
  private readonly files = new Map<number, File>();
  private waiting: number[] = [];
  private running = false;
  private current: AbortController | null = null;
  private cancelled = false;
  /** Sent although a duplicate: not checked again. */
  private readonly forced = new Set<number>();
  private nextId = 1;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: UploadQueueDeps) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): readonly UploadItem[] => this.items;

  add(files: Iterable<File>): void {
    const added: UploadItem[] = [];
    for (const file of files) {
      const id = this.nextId++;
      this.files.set(id, file);
      this.waiting.push(id);
      added.push({
        id,
        name: file.name,
        size: file.size,
        status: 'queued',
        percent: 0,
        error: null,
      });
    }
    if (added.length === 0) return;
    this.setItems([...this.items, ...added]);
    void this.pump();
  }

  /** Queues a failed file again; it keeps its place in the list. */
  retry(id: number): void {
    const item = this.items.find((candidate) => candidate.id === id);
    if (item?.status !== 'failed' || !this.files.has(id)) return;
    this.update(id, { status: 'queued', percent: 0, error: null });
    this.waiting.push(id);
    void this.pump();
  }

  /** Sends a file skipped as a duplicate all the same. */
  uploadAnyway(id: number): void {
    const item = this.items.find((candidate) => candidate.id === id);
    if (item?.status !== 'duplicate' || !this.files.has(id)) return;
    this.forced.add(id);
    this.update(id, { status: 'queued', percent: 0 });
    this.waiting.push(id);
    void this.pump();
  }

  /** Forgets the finished and failed files; those waiting or on their way stay. */
  clearFinished(): void {
    const kept = this.items.filter((item) => isUploadActive(item.status));
    for (const item of this.items) if (!kept.includes(item)) this.files.delete(item.id);
    this.setItems(kept);
  }

  /** Stops the upload on its way and drops the waiting ones (the page is going away). */
  cancelAll(): void {
    this.cancelled = true;
    this.waiting = [];
    this.current?.abort();
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let id = this.waiting.shift(); id !== undefined; id = this.waiting.shift()) {
        await this.uploadOne(id);
      }
    } finally {
      this.running = false;
    }
  }

  private async uploadOne(id: number): Promise<void> {
    const file = this.files.get(id);
    if (file === undefined) return;
    const { check } = this.deps;
    if (check !== undefined && !this.forced.has(id)) {
      this.update(id, { status: 'checking', percent: 0, error: null });
      const result = await check(file).catch(() => null);
      if (this.cancelled) return;
      if (result?.match) {
        this.update(id, { status: 'duplicate' });
        return;
      }
    }
    const controller = new AbortController();
    this.current = controller;
    this.update(id, { status: 'uploading', percent: 0, error: null });
    try {
      const uploaded = await this.deps.upload(
        file,
        (fraction) => {
          const percent = Math.min(100, Math.max(0, Math.round(fraction * 100)));
          // Progress events come many times a second: render only whole-percent changes.
          if (this.items.find((item) => item.id === id)?.percent !== percent) {
            this.update(id, { percent });
          }
        },
        controller.signal,
      );
      this.files.delete(id);
      this.update(id, { status: 'done', percent: 100 });
      this.deps.onUploaded(uploaded);
    } catch (error) {
      this.update(id, { status: 'failed', error: controller.signal.aborted ? null : error });
    } finally {
      this.current = null;
    }
  }

  private update(id: number, patch: Partial<UploadItem>): void {
    this.setItems(this.items.map((item) => (item.id === id ? { ...item, ...patch } : item)));
  }

  private setItems(items: readonly UploadItem[]): void {
    this.items = items;
    for (const listener of this.listeners) listener();
  }
}
