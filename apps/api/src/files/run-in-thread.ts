import { Worker } from 'node:worker_threads';

export interface ThreadOptions<T> {
  /** The answer when the thread takes longer than `timeoutMs` (it is terminated). */
  timeoutMs: number;
  onTimeout: () => T;
  /** The answer when the thread ends without answering. */
  onExit: (code: number) => T;
  /** The answer when the thread throws; without it, the promise rejects with the error. */
  onError?: (error: Error) => T;
  /** The thread's JavaScript heap, so a crafted input ends the thread, not the process. */
  heapMb?: number;
}

/**
 * Runs `source` (CommonJS, eval: the same code runs from the TypeScript sources and the build) in
 * a worker thread of its own and answers its first message. The thread's console is swallowed
 * (decoders report malformed input there; it is not ours to print), and the thread ends with the
 * answer, the timeout or its own error, whichever comes first, giving its memory back.
 */
export function runInThread<T>(
  source: string,
  workerData: unknown,
  options: ThreadOptions<T>,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, {
      eval: true,
      workerData,
      ...(options.heapMb === undefined
        ? {}
        : { resourceLimits: { maxOldGenerationSizeMb: options.heapMb } }),
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(() => finish(() => resolve(options.onTimeout())), options.timeoutMs);
    worker.once('message', (answer: T) => finish(() => resolve(answer)));
    worker.once('error', (error) =>
      finish(() =>
        options.onError && error instanceof Error
          ? resolve(options.onError(error))
          : reject(error instanceof Error ? error : new Error(String(error))),
      ),
    );
    worker.once('exit', (code) => finish(() => resolve(options.onExit(code))));
  });
}
