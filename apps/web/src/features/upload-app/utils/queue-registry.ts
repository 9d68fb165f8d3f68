import type { TusQueueOptions, TusUploadQueue } from './tus-queue';

/**
 * The upload queues of the upload app, one per user and collection, living as long as the page:
 * choosing another collection, or a look at the team app, does not stop what is on its way.
 */
export class QueueRegistry {
  private readonly queues = new Map<string, TusUploadQueue>();
  private online = typeof navigator === 'undefined' ? true : navigator.onLine;
  private storageVersion = 0;
  private readonly listeners = new Set<() => void>();
  private readonly activityListeners = new Set<() => void>();
  private busy = false;

  /** Whether any queue has a file waiting or on its way (closing the tab would stop it). */
  readonly subscribeBusy = (listener: () => void): (() => void) => {
    this.activityListeners.add(listener);
    return () => this.activityListeners.delete(listener);
  };

  readonly isBusy = (): boolean => this.busy;

  private readonly queueChanged = (): void => {
    const busy = [...this.queues.values()].some((queue) =>
      queue.getSnapshot().some((entry) => entry.status !== 'done' && entry.status !== 'failed'),
    );
    if (busy === this.busy) return;
    this.busy = busy;
    for (const listener of this.activityListeners) listener();
  };

  /** Counts changes of the URL storage (uploads started, finished, cancelled, abandoned). */
  readonly subscribeStorage = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getStorageVersion = (): number => this.storageVersion;

  readonly storageChanged = (): void => {
    this.storageVersion += 1;
    for (const listener of this.listeners) listener();
  };

  queue(key: string, create: (online: boolean) => TusUploadQueue): TusUploadQueue {
    let queue = this.queues.get(key);
    if (queue === undefined) {
      queue = create(this.online);
      this.queues.set(key, queue);
      queue.subscribe(this.queueChanged);
    }
    return queue;
  }

  setOnline(online: boolean): void {
    this.online = online;
    for (const queue of this.queues.values()) queue.setOnline(online);
  }

  /** Stops every queue; what was on its way stays stored, to be resumed another time. */
  stopAll(): void {
    for (const queue of this.queues.values()) queue.stop();
    this.queues.clear();
    this.queueChanged();
    this.storageChanged();
  }
}

export type QueueFactoryOptions = Omit<TusQueueOptions, 'online' | 'onStorageChange'>;
