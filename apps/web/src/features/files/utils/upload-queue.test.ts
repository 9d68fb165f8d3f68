import type { FileItem } from '@raccolta/contracts';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { UploadQueue, type UploadQueueDeps } from './upload-queue';

interface Pending {
  file: File;
  onProgress: (fraction: number) => void;
  signal: AbortSignal;
  resolve: (file: FileItem) => void;
  reject: (error: unknown) => void;
}

function setup() {
  const pending: Pending[] = [];
  const upload = vi.fn<UploadQueueDeps['upload']>(
    (file, onProgress, signal) =>
      new Promise((resolve, reject) => pending.push({ file, onProgress, signal, resolve, reject })),
  );
  const onUploaded = vi.fn();
  const queue = new UploadQueue({ upload, onUploaded });
  return { queue, pending, upload, onUploaded };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const statuses = (queue: UploadQueue) => queue.getSnapshot().map((item) => item.status);
const uploaded = { fileId: 'x' } as FileItem;

describe('UploadQueue', () => {
  it('uploads one file at a time in the order chosen', async () => {
    const { queue, pending, onUploaded } = setup();
    queue.add([new File(['a'], 'a.txt'), new File(['b'], 'b.txt')]);
    expect(statuses(queue)).toEqual(['uploading', 'queued']);
    expect(pending).toHaveLength(1);

    pending[0]?.onProgress(0.424);
    expect(queue.getSnapshot()[0]?.percent).toBe(42);
    pending[0]?.resolve(uploaded);
    await settle();
    expect(statuses(queue)).toEqual(['done', 'uploading']);
    expect(onUploaded).toHaveBeenCalledWith(uploaded);
    expect(pending[1]?.file.name).toBe('b.txt');
  });

  it('keeps a failure with its error and retries it in place', async () => {
    const { queue, pending } = setup();
    queue.add([new File(['a'], 'a.txt')]);
    const error = new ApiError(413, 'fileTooLarge');
    pending[0]?.reject(error);
    await settle();
    expect(queue.getSnapshot()[0]).toMatchObject({ status: 'failed', error, percent: 0 });

    queue.retry(queue.getSnapshot()[0]?.id ?? 0);
    expect(statuses(queue)).toEqual(['uploading']);
    expect(pending[1]?.file.name).toBe('a.txt');
    pending[1]?.resolve(uploaded);
    await settle();
    expect(statuses(queue)).toEqual(['done']);
  });

  it('clears the finished, and cancels what is left when the page goes away', async () => {
    const { queue, pending, upload } = setup();
    queue.add([new File(['a'], 'a.txt'), new File(['b'], 'b.txt'), new File(['c'], 'c.txt')]);
    pending[0]?.resolve(uploaded);
    await settle();
    queue.clearFinished();
    expect(queue.getSnapshot().map((item) => item.name)).toEqual(['b.txt', 'c.txt']);

    queue.cancelAll();
    expect(pending[1]?.signal.aborted).toBe(true);
    pending[1]?.reject(new DOMException('cancelled', 'AbortError'));
    await settle();
    expect(upload).toHaveBeenCalledTimes(2);
  });

  it('skips a file the collection holds already, and sends it anyway when asked', async () => {
    const pending: Pending[] = [];
    const upload = vi.fn<UploadQueueDeps['upload']>(
      (file, onProgress, signal) =>
        new Promise((resolve, reject) =>
          pending.push({ file, onProgress, signal, resolve, reject }),
        ),
    );
    const check = vi.fn((file: File) =>
      Promise.resolve({ match: file.name === 'a.txt' ? { name: 'a.txt' } : null }),
    );
    const queue = new UploadQueue({ upload, onUploaded: vi.fn(), check });
    queue.add([new File(['a'], 'a.txt'), new File(['b'], 'b.txt')]);
    expect(statuses(queue)).toEqual(['checking', 'queued']);
    await settle();
    expect(statuses(queue)).toEqual(['duplicate', 'uploading']);
    expect(pending.map((p) => p.file.name)).toEqual(['b.txt']);
    pending[0]?.resolve(uploaded);
    await settle();

    queue.uploadAnyway(queue.getSnapshot()[0]?.id ?? 0);
    await settle();
    expect(statuses(queue)).toEqual(['uploading', 'done']);
    expect(pending.map((p) => p.file.name)).toEqual(['b.txt', 'a.txt']);
    // Forced: not checked a second time.
    expect(check).toHaveBeenCalledTimes(2);
  });

  it('sends a file unchecked when the check fails', async () => {
    const pending: Pending[] = [];
    const upload = vi.fn<UploadQueueDeps['upload']>(
      (file, onProgress, signal) =>
        new Promise((resolve, reject) =>
          pending.push({ file, onProgress, signal, resolve, reject }),
        ),
    );
    const queue = new UploadQueue({
      upload,
      onUploaded: vi.fn(),
      check: () => Promise.reject(new Error('no worker')),
    });
    queue.add([new File(['a'], 'a.txt')]);
    await settle();
    expect(statuses(queue)).toEqual(['uploading']);
  });
});
