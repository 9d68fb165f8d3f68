import { z } from 'zod';

/**
 * The downloads being prepared that the signed-in user asked for in this tab. Kept in
 * sessionStorage so a reload goes on following them; each names its user, so another account
 * signing in here never sees them.
 */
export const trackedDownloadSchema = z.object({
  userId: z.string(),
  teamId: z.string(),
  downloadId: z.string(),
  collectionId: z.string(),
  collectionName: z.string(),
});
export type TrackedDownload = z.infer<typeof trackedDownloadSchema>;

export const TRACKED_DOWNLOADS_KEY = 'downloadsInProgress';

export function readTrackedDownloads(userId: string | null): TrackedDownload[] {
  if (userId === null) return [];
  try {
    const raw = sessionStorage.getItem(TRACKED_DOWNLOADS_KEY);
    if (raw === null) return [];
    const parsed = z.array(trackedDownloadSchema).safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data.filter((entry) => entry.userId === userId) : [];
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
