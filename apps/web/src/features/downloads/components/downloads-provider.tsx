import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { withPageNeeds } from '../../../lib/page-needs';
import { preloadable } from '../../../lib/preloadable';
import { useSession } from '../../../lib/auth/session/session-context';
import {
  DownloadsContext,
  type CollectionToDownload,
  type DownloadsApi,
} from '../../../lib/downloads-context';
import { writeTrackedDownloads } from '../utils/tracked-downloads';

/**
 * The following itself (its queries, its toasts) arrives for signed-in people only: a visitor's
 * first page does not download it.
 */
const { Component: DownloadsTracker, preload: preloadDownloadsTracker } = preloadable(
  withPageNeeds(() => import('./downloads-tracker')),
);

export { preloadDownloadsTracker };

/**
 * Collection downloads for the app's pages (mounted once, around them): requested and followed
 * while they are prepared by DownloadsTracker, whatever page is shown. A request made before the
 * tracker has arrived waits for it.
 */
export function DownloadsProvider({ children }: { children: ReactNode }) {
  const { status } = useSession();
  const signedIn = status === 'signedIn';
  const [tracker, setTracker] = useState<DownloadsApi | null>(null);
  const waiting = useRef<CollectionToDownload[]>([]);

  // Signed out: nothing of the last user's downloads is followed after a reload.
  useEffect(() => {
    if (!signedIn) {
      waiting.current = [];
      writeTrackedDownloads([]);
    }
  }, [signedIn]);

  useEffect(() => {
    if (tracker === null) return;
    for (const collection of waiting.current.splice(0)) tracker.request(collection);
  }, [tracker]);

  const api = useMemo<DownloadsApi>(
    () =>
      tracker ?? {
        request: (collection) => {
          if (!waiting.current.some((other) => other.collectionId === collection.collectionId))
            waiting.current.push(collection);
        },
        isRequesting: (collectionId) =>
          waiting.current.some((collection) => collection.collectionId === collectionId),
      },
    [tracker],
  );

  return (
    <DownloadsContext value={api}>
      {children}
      {signedIn && <DownloadsTracker onApi={setTracker} />}
    </DownloadsContext>
  );
}
