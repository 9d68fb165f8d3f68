import { sha256OfBlob } from './sha256-blob';
import type { Sha256Reply, Sha256Request } from './sha256-messages';

/**
 * The hashing worker: one file at a time, in the order asked, off the page's thread so the
 * queue and its progress stay smooth while a large video is hashed.
 */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Sha256Request>) => void) | null;
  postMessage: (reply: Sha256Reply) => void;
};

let chain: Promise<void> = Promise.resolve();

scope.onmessage = (event: MessageEvent<Sha256Request>) => {
  const { id, blob } = event.data;
  const post = (reply: Sha256Reply) => scope.postMessage(reply);
  chain = chain.then(async () => {
    try {
      let reported = 0;
      const sha256 = await sha256OfBlob(blob, {
        onProgress: (hashed) => {
          // A message every 64 MiB at most: progress, not traffic.
          if (hashed - reported < 64 * 1024 * 1024 && hashed < blob.size) return;
          reported = hashed;
          post({ id, kind: 'progress', hashed });
        },
      });
      post({ id, kind: 'done', sha256 });
    } catch (error) {
      post({ id, kind: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  });
};
