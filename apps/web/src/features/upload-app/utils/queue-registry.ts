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

/**
 * Leaving the page for another (a link, Back) may keep it whole in the back/forward cache, File
 * objects included. What is on its way stops when the page is hidden (the server keeps what it
 * received; no request left open keeps the page out of that cache), and continues by itself from
 * the server's offset when the page is shown again from it: nothing to choose again. A page not
 * kept is gone anyway, its uploads resumable after a reload. Returns the clean-up.
 */
export function followPageLifecycle(registry: QueueRegistry, target: Window = window): () => void {
  const hidden = () => registry.setOnline(false);
  const shown = (event: PageTransitionEvent) => {
    if (event.persisted) registry.setOnline(navigator.onLine);
  };
  target.addEventListener('pagehide', hidden);
  target.addEventListener('pageshow', shown);
  return () => {
    target.removeEventListener('pagehide', hidden);
    target.removeEventListener('pageshow', shown);
  };
}

export type QueueFactoryOptions = Omit<TusQueueOptions, 'online' | 'onStorageChange'>;
