/**
 * The downloads being prepared that the signed-in user asked for in this tab. Kept in
 * sessionStorage so a reload goes on following them; each names its user, so another account
 * signing in here never sees them.
 */
export interface TrackedDownload {
  userId: string;
  teamId: string;
  downloadId: string;
  collectionId: string;
  collectionName: string;
}

/**
 * One stored entry, or null when it is not one. Checked by hand: the downloads are followed on
 * every page, and a visitor's first page does not download Zod.
 */
function asTrackedDownload(value: unknown): TrackedDownload | null {
  if (typeof value !== 'object' || value === null) return null;
  const { userId, teamId, downloadId, collectionId, collectionName } = value as Record<
    keyof TrackedDownload,
    unknown
  >;
  if (
    typeof userId !== 'string' ||
    typeof teamId !== 'string' ||
    typeof downloadId !== 'string' ||
    typeof collectionId !== 'string' ||
    typeof collectionName !== 'string'
  ) {
    return null;
  }
  return { userId, teamId, downloadId, collectionId, collectionName };
}

export const TRACKED_DOWNLOADS_KEY = 'downloadsInProgress';

export function readTrackedDownloads(userId: string | null): TrackedDownload[] {
  if (userId === null) return [];
  try {
    const raw = sessionStorage.getItem(TRACKED_DOWNLOADS_KEY);
    if (raw === null) return [];
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    const entries = parsed.map(asTrackedDownload);
    // As before: one unreadable entry makes the whole list unreadable.
    if (entries.some((entry) => entry === null)) return [];
    return (entries as TrackedDownload[]).filter((entry) => entry.userId === userId);
  } catch {
    // Unreadable or unavailable storage: nothing to resume.
    return [];
  }
}

export function writeTrackedDownloads(entries: readonly TrackedDownload[]): void {
  try {
    if (entries.length === 0) sessionStorage.removeItem(TRACKED_DOWNLOADS_KEY);
    else sessionStorage.setItem(TRACKED_DOWNLOADS_KEY, JSON.stringify(entries));
  } catch {
    // Without storage a reload stops the following; the e-mail still arrives.
  }
}
