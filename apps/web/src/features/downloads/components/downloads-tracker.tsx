import {
  DOWNLOAD_POLL_INTERVAL_MS,
  PREPARING_DOWNLOAD_TOAST_MS,
  type Download,
} from '@raccolta/contracts';
import { useQueries, type Query } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ERROR_TOAST_DURATION_MS, useSnackbar } from '../../../components/snackbar';
import { isApiError, isClientError } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/error-text';
import { useSession } from '../../../lib/auth/session/session-context';
import { startBrowserDownload } from '../../../lib/start-download';
import { useCreateDownloadMutation } from '../api/create-download';
import { downloadKeys, downloadPagePath } from '../api/download-keys';
import { getDownloadLink } from '../api/download-link';
import { getDownload } from '../api/get-download';
import type { CollectionToDownload, DownloadsApi } from '../../../lib/downloads-context';
import { downloadOutcome, partsComing, type DownloadOutcome } from '../utils/download-outcome';
import {
  readTrackedDownloads,
  writeTrackedDownloads,
  type TrackedDownload,
} from '../utils/tracked-downloads';

/** How a followed download ended: an outcome of its own, or the API no longer showing it (4xx). */
type TrackingEnd = { outcome: DownloadOutcome; download: Download } | { gone: unknown } | null;

/**
 * Polled every 5 s until ready or failed, also when it comes in several parts (spec §3 stopped
 * there, and a download in parts never said it was ready). A 4xx (the download is gone, or no
 * longer the user's) stops it for good.
 */
function trackingInterval(query: Query<Download>): number | false {
  if (isClientError(query.state.error)) return false;
  const download = query.state.data;
  return download !== undefined && downloadOutcome(download) !== null
    ? false
    : DOWNLOAD_POLL_INTERVAL_MS;
}

function trackingEnd(data: Download | undefined, error: unknown): TrackingEnd {
  const outcome = data === undefined ? null : downloadOutcome(data);
  if (data !== undefined && outcome !== null) return { outcome, download: data };
  // A 401 ends the session, which stops the following anyway: not the download's fault.
  if (isClientError(error) && isApiError(error) && error.statusCode !== 401) return { gone: error };
  return null;
}

/** Whether the current page is this download's page, which shows its state by itself. */
function isDownloadPage(pathname: string, downloadId: string): boolean {
  return pathname.endsWith(`/downloads/${encodeURIComponent(downloadId)}/download`);
}

/**
 * Requests collection downloads and follows them while they are prepared, for the signed-in
 * user (rendered by DownloadsProvider, which hands its API to the pages): the downloads asked for
 * are kept in sessionStorage, so a reload goes on following them, and each ends in one toast that
 * stays until closed (ready: "Download now", or "Open" the download page that offers each part;
 * failed: "Try again"). A download found to come in several parts says so while it is prepared.
 */
export default function DownloadsTracker({ onApi }: { onApi: (api: DownloadsApi | null) => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { show } = useSnackbar();
  const { status, idClaims, request: authedRequest } = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { mutateAsync: createDownload } = useCreateDownloadMutation();
  const userId = status === 'signedIn' ? (idClaims?.sub ?? null) : null;

  // Another user (or nobody) signed in: their own list, read again from the tab's storage.
  const [tracked, setTracked] = useState(() => ({
    userId,
    entries: readTrackedDownloads(userId),
  }));
  let entries = tracked.entries;
  if (tracked.userId !== userId) {
    entries = readTrackedDownloads(userId);
    setTracked({ userId, entries });
  }

  const results = useQueries({
    queries: entries.map((entry) => ({
      queryKey: downloadKeys.detail(entry.teamId, entry.downloadId),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        getDownload(authedRequest, entry.teamId, entry.downloadId, signal),
      enabled: userId !== null,
      // Back on the tab after a while: ask at once rather than at the next tick.
      staleTime: DOWNLOAD_POLL_INTERVAL_MS,
      refetchInterval: trackingInterval,
    })),
  });
  const ends = entries.map((_entry, index) => {
    const result = results[index];
    return result === undefined ? null : trackingEnd(result.data, result.error);
  });
  // Finished ones stay in memory (their queries idle) but leave the storage: a reload must not
  // announce them again.
  const active = entries.filter((_entry, index) => ends[index] === null);

  // The request callbacks read the latest list without being made anew for every poll.
  const activeRef = useRef<readonly TrackedDownload[]>(active);
  useEffect(() => {
    activeRef.current = active;
    writeTrackedDownloads(active);
  });

  const announced = useRef(new Set<string>());
  const toldParts = useRef(new Set<string>());
  const requestingRef = useRef(new Set<string>());
  const [requesting, setRequesting] = useState<ReadonlySet<string>>(() => new Set());

  const failureText = useCallback(
    (name: string, error: unknown) => {
      const text = t('downloads.toast.failed', { name });
      // The API's reason (no files, no longer allowed…) says more than "could not be prepared".
      return isApiError(error) && error.errorCode !== 'generic'
        ? `${text} ${errorText(error)}`
        : text;
    },
    [t, errorText],
  );

  const showPreparing = useCallback(
    (collection: CollectionToDownload) =>
      show(t('downloads.toast.preparing', { name: collection.name }), 'info', {
        autoHideDuration: PREPARING_DOWNLOAD_TOAST_MS,
        key: `preparing:${collection.collectionId}`,
      }),
    [show, t],
  );

  const request = useCallback(
    (collection: CollectionToDownload) => {
      const { teamId, collectionId } = collection;
      if (activeRef.current.some((entry) => entry.collectionId === collectionId)) {
        showPreparing(collection);
        return;
      }
      // The first click's answer is on its way.
      if (requestingRef.current.has(collectionId) || userId === null) return;
      requestingRef.current.add(collectionId);
      setRequesting(new Set(requestingRef.current));
      createDownload({ teamId, collectionId })
        .then((download) => {
          if (downloadOutcome(download) === null) showPreparing(collection);
          const entry: TrackedDownload = {
            userId,
            teamId: download.teamId,
            downloadId: download.requestId,
            collectionId,
            collectionName: download.collectionName,
          };
          // The same download again (the server may hand back one still being prepared): one
          // entry, announced anew.
          announced.current.delete(entry.downloadId);
          toldParts.current.delete(entry.downloadId);
          setTracked((previous) =>
            previous.userId === userId
              ? {
                  userId,
                  entries: [
                    ...previous.entries.filter((other) => other.downloadId !== entry.downloadId),
                    entry,
                  ],
                }
              : previous,
          );
        })
        .catch((error: unknown) =>
          show(failureText(collection.name, error), 'error', {
            autoHideDuration: ERROR_TOAST_DURATION_MS,
          }),
        )
        .finally(() => {
          requestingRef.current.delete(collectionId);
          setRequesting(new Set(requestingRef.current));
        });
    },
    [createDownload, failureText, show, showPreparing, userId],
  );

  const downloadNow = useCallback(
    (entry: TrackedDownload) => {
      getDownloadLink(authedRequest, entry).then(startBrowserDownload, () =>
        show(t('files.errors.startingDownload'), 'error', {
          autoHideDuration: ERROR_TOAST_DURATION_MS,
        }),
      );
    },
    [authedRequest, show, t],
  );

  const openPage = useCallback(
    (entry: TrackedDownload) => ({
      label: t('downloads.toast.open'),
      onClick: () => void navigate(downloadPagePath(entry.teamId, entry.downloadId)),
    }),
    [navigate, t],
  );

  const announce = useCallback(
    (entry: TrackedDownload, end: NonNullable<TrackingEnd>) => {
      const name = entry.collectionName;
      const options = { autoHideDuration: null, key: `download:${entry.downloadId}` };
      const again = {
        label: t('actions.retry'),
        onClick: () => request({ teamId: entry.teamId, collectionId: entry.collectionId, name }),
      };
      if ('gone' in end) {
        show(failureText(name, end.gone), 'error', options);
        return;
      }
      switch (end.outcome) {
        case 'ready': {
          const count = end.download.totalParts ?? 1;
          if (count > 1) {
            // Browsers refuse several downloads started by one click: the page has one per part.
            show(t('downloads.toast.readyParts', { name, count }), 'success', {
              ...options,
              action: openPage(entry),
            });
            return;
          }
          show(t('downloads.toast.ready', { name }), 'success', {
            ...options,
            action: { label: t('downloads.toast.downloadNow'), onClick: () => downloadNow(entry) },
          });
          return;
        }
        case 'failed':
          show(t('downloads.toast.failed', { name }), 'error', { ...options, action: again });
          return;
        case 'expired':
          show(`${t('downloads.toast.failed', { name })} ${t('errors.downloadExpired')}`, 'error', {
            ...options,
            action: again,
          });
          return;
      }
    },
    [downloadNow, failureText, openPage, request, show, t],
  );

  // Found to come in several parts while it is prepared: said once, under the key the ready
  // toast replaces it with.
  useEffect(() => {
    entries.forEach((entry, index) => {
      const data = results[index]?.data;
      const count = data === undefined ? null : partsComing(data);
      if (count === null || toldParts.current.has(entry.downloadId)) return;
      toldParts.current.add(entry.downloadId);
      if (isDownloadPage(pathname, entry.downloadId)) return;
      show(t('downloads.toast.large', { name: entry.collectionName, count }), 'info', {
        autoHideDuration: null,
        key: `download:${entry.downloadId}`,
        action: openPage(entry),
      });
    });
  });

  // Each download is announced once, when its following ends; not on its own page, which shows
  // the same news (and starts the download) by itself.
  useEffect(() => {
    entries.forEach((entry, index) => {
      const end = ends[index];
      if (end === null || end === undefined || announced.current.has(entry.downloadId)) return;
      announced.current.add(entry.downloadId);
      if (!isDownloadPage(pathname, entry.downloadId)) announce(entry, end);
    });
  });

  const api = useMemo<DownloadsApi>(
    () => ({ request, isRequesting: (collectionId) => requesting.has(collectionId) }),
    [request, requesting],
  );

  useEffect(() => onApi(api), [api, onApi]);
  useEffect(() => () => onApi(null), [onApi]);
  return null;
}
