import { defaultOptions } from 'tus-js-client';
import { useEffect, useRef, useState } from 'react';
import { useUploadOffsets, type UploadOffset } from '../api/get-upload-offset';
import { findInterruptedUploads, type InterruptedUpload } from '../utils/upload-storage';
import type { CollectionUploads } from './use-collection-uploads';

export interface InterruptedWithOffset extends InterruptedUpload {
  offset: UploadOffset | undefined;
}

/**
 * The uploads of this collection that an earlier visit left unfinished (the page was reloaded or
 * closed): kept by tus-js-client in localStorage, shown until the same file is chosen again (it
 * then resumes) or they are discarded. Those the server no longer has are forgotten at once.
 */
export function useInterruptedUploads({
  queue,
  scope,
  entries,
  storageVersion,
  authorization,
}: CollectionUploads): InterruptedWithOffset[] {
  const [found, setFound] = useState<InterruptedUpload[]>([]);
  // Progress changes the entries many times a second; only which files are busy matters here.
  const busyKey = entries
    .filter((entry) => entry.status !== 'done')
    .map((entry) => entry.id)
    .join(',');

  useEffect(() => {
    let live = true;
    findInterruptedUploads(defaultOptions.urlStorage, scope, queue.busyFingerprints()).then(
      (list) => {
        if (live) setFound(list);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [queue, scope, storageVersion, busyKey]);

  const offsets = useUploadOffsets(
    found.map((upload) => upload.uploadUrl),
    authorization,
  );

  const forgotten = useRef(new Set<string>());
  const gone = found.filter((upload) => offsets.get(upload.uploadUrl)?.kind === 'gone');
  const goneKey = gone.map((upload) => upload.urlStorageKey).join(',');
  useEffect(() => {
    for (const upload of gone) {
      if (forgotten.current.has(upload.urlStorageKey)) continue;
      forgotten.current.add(upload.urlStorageKey);
      void queue.forgetStored(upload.fingerprint);
    }
    // goneKey stands for `gone`, a new array at every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [goneKey, queue]);

  return found
    .map((upload) => ({ ...upload, offset: offsets.get(upload.uploadUrl) }))
    .filter((upload) => upload.offset?.kind !== 'gone');
}
