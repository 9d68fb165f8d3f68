import { createContext, useContext } from 'react';

/** What a download is requested for: a whole collection (spec §4 "Download request"). */
export interface CollectionToDownload {
  teamId: string;
  collectionId: string;
  name: string;
}

export interface DownloadsApi {
  /**
   * Requests the download of a collection and follows it until it can be downloaded. A
   * collection already being prepared is not requested twice: its preparing toast shows again.
   */
  request: (collection: CollectionToDownload) => void;
  /** Whether the request for this collection is waiting for the server's answer. */
  isRequesting: (collectionId: string) => boolean;
}

export const DownloadsContext = createContext<DownloadsApi | null>(null);

export function useDownloads(): DownloadsApi {
  const value = useContext(DownloadsContext);
  if (value === null) throw new Error('useDownloads must be used inside <DownloadsProvider>');
  return value;
}
