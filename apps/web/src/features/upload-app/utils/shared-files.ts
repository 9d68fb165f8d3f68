/**
 * Files shared to the installed app from the phone's share sheet. The service worker (public/sw.js,
 * same names) takes the manifest's share_target POST and keeps each file in a cache of its own
 * under `/__share/{id}/{n}`, its name and date in headers; the page reads them from there.
 */
export const SHARE_CACHE = 'raccolta-share-v1';
const SHARE_PREFIX = '/__share/';

/** A share id as the worker makes them (`{epoch ms}-{uuid}`); anything else is not looked up. */
const SHARE_ID = /^\d{1,16}-[0-9a-f-]{36}$/;

export function shareIdFromSearch(search: string): string | null {
  const id = new URLSearchParams(search).get('id');
  return id !== null && SHARE_ID.test(id) ? id : null;
}

function isOfShare(request: Request, id: string): boolean {
  return new URL(request.url).pathname.startsWith(`${SHARE_PREFIX}${id}/`);
}

const indexOf = (request: Request) => Number(new URL(request.url).pathname.split('/').pop());

/** A kept file as it was shared (name, type, date); null for an entry that cannot be read. */
export async function fileFromResponse(response: Response): Promise<File | null> {
  const encoded = response.headers.get('X-File-Name');
  if (encoded === null) return null;
  let name: string;
  try {
    name = decodeURIComponent(encoded);
  } catch {
    return null;
  }
  const lastModified = Number(response.headers.get('X-Last-Modified'));
  const blob = await response.blob();
  return new File([blob], name, {
    type: blob.type || (response.headers.get('Content-Type') ?? ''),
    ...(Number.isFinite(lastModified) && lastModified > 0 ? { lastModified } : {}),
  });
}

/** The files of a share, in the order shared; empty when the share is gone (cleared, expired). */
export async function readSharedFiles(id: string, storage: CacheStorage = caches): Promise<File[]> {
  if (!(await storage.has(SHARE_CACHE))) return [];
  const cache = await storage.open(SHARE_CACHE);
  const requests = (await cache.keys())
    .filter((request) => isOfShare(request, id))
    .sort((a, b) => indexOf(a) - indexOf(b));
  const files = await Promise.all(
    requests.map(async (request) => {
      const response = await cache.match(request);
      return response === undefined ? null : fileFromResponse(response);
    }),
  );
  return files.filter((file) => file !== null);
}

/** Forgets a share once its files are in the upload queue (the queue holds them from then on). */
export async function removeSharedFiles(id: string, storage: CacheStorage = caches): Promise<void> {
  if (!(await storage.has(SHARE_CACHE))) return;
  const cache = await storage.open(SHARE_CACHE);
  const requests = (await cache.keys()).filter((request) => isOfShare(request, id));
  await Promise.all(requests.map((request) => cache.delete(request)));
}

/** The collection a member last sent shared files to, per account (localStorage). */
export interface ShareChoice {
  teamId: string;
  collectionId: string;
}

const choiceKey = (userId: string) => `raccolta:share-choice:${userId}`;

export function readShareChoice(
  userId: string,
  storage: Storage = localStorage,
): ShareChoice | null {
  try {
    const value: unknown = JSON.parse(storage.getItem(choiceKey(userId)) ?? 'null');
    if (
      typeof value === 'object' &&
      value !== null &&
      'teamId' in value &&
      'collectionId' in value &&
      typeof value.teamId === 'string' &&
      typeof value.collectionId === 'string'
    ) {
      return { teamId: value.teamId, collectionId: value.collectionId };
    }
  } catch {
    // Unreadable: as if nothing were remembered.
  }
  return null;
}

export function rememberShareChoice(
  userId: string,
  choice: ShareChoice,
  storage: Storage = localStorage,
): void {
  try {
    storage.setItem(choiceKey(userId), JSON.stringify(choice));
  } catch {
    // Storage full or refused: the choice is simply not remembered.
  }
}

/**
 * The team to show first: the remembered one while it is still among the member's teams,
 * else the first.
 */
export function initialTeamId(
  teamIds: readonly string[],
  remembered: ShareChoice | null,
): string | null {
  if (remembered !== null && teamIds.includes(remembered.teamId)) return remembered.teamId;
  return teamIds[0] ?? null;
}

/**
 * The collection preselected: the remembered one when it is in the team and still accepts the
 * member's uploads, else the only one there is, else none (the member chooses).
 */
export function initialCollectionId(
  teamId: string,
  collectionIds: readonly string[],
  remembered: ShareChoice | null,
): string | null {
  if (remembered?.teamId === teamId && collectionIds.includes(remembered.collectionId)) {
    return remembered.collectionId;
  }
  return collectionIds.length === 1 ? (collectionIds[0] ?? null) : null;
}
