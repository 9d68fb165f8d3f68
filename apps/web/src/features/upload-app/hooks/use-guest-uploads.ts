import { useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { guestUploadsEndpoint } from '../api/guest-link';
import { readGuestDetails } from '../utils/guest-storage';
import { TusUploadQueue } from '../utils/tus-queue';
import { uploadScope } from '../utils/upload-storage';
import { guestFileKeys } from './use-guest-files';
import { guestToken } from './use-guest-link';
import type { CollectionUploads } from './use-collection-uploads';
import { useQueueRegistry } from './upload-queues';

/** The name and e-mail each upload carries (tus metadata), as last typed on the page. */
export function guestMetadata(): Record<string, string> {
  const { name, email } = readGuestDetails();
  const metadata: Record<string, string> = {};
  // tus sends an empty value as a key without one: left out instead.
  if (name.trim() !== '') metadata.guestName = name.trim();
  if (email.trim() !== '') metadata.guestEmail = email.trim();
  return metadata;
}

/**
 * The upload queue of a guest through an upload link: the members' queue (tus-queue.ts) with the
 * guest token, the guests' endpoint and the guest's name and e-mail on each upload. Its scope
 * (the start of each fingerprint) is the guest and the link, so an interrupted upload resumes
 * on this link only.
 */
export function useGuestUploads(linkToken: string, guestId: string): CollectionUploads {
  const registry = useQueueRegistry();
  const queryClient = useQueryClient();
  const scope = uploadScope(`guest-${guestId}`, linkToken);
  const authorization = async () => `Bearer ${await guestToken(linkToken)}`;
  const queue = registry.queue(
    scope,
    (online) =>
      new TusUploadQueue({
        endpoint: guestUploadsEndpoint(),
        scope,
        online,
        authorization,
        metadata: guestMetadata,
        onUploaded: () => {
          void queryClient.invalidateQueries({ queryKey: guestFileKeys.list(linkToken) });
        },
        onStorageChange: registry.storageChanged,
      }),
  );
  const entries = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  const storageVersion = useSyncExternalStore(
    registry.subscribeStorage,
    registry.getStorageVersion,
  );
  return { queue, entries, storageVersion, scope, authorization };
}
