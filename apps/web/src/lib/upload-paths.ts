/** The contributor upload app's addresses (ARCHITECTURE §1: /upload, an installable PWA). */
export const UPLOAD_APP_PATH = '/upload';
export const UPLOAD_SIGN_IN_PATH = `${UPLOAD_APP_PATH}/signin`;

/** A team's collections to choose from; the team by alias or id, as the team app does. */
export function uploadTeamPath(teamRef: string): string {
  return `${UPLOAD_APP_PATH}/teams/${encodeURIComponent(teamRef)}`;
}

/** The upload screen of one collection. */
export function uploadCollectionPath(teamRef: string, collectionId: string): string {
  return `${uploadTeamPath(teamRef)}/collections/${encodeURIComponent(collectionId)}`;
}

/** A guest's page of an upload link (the URL its QR code encodes). */
export function uploadLinkPath(linkToken: string): string {
  return `${UPLOAD_APP_PATH}/l/${encodeURIComponent(linkToken)}`;
}

export function isUploadAppPath(path: string | null): path is string {
  return (
    path !== null &&
    (path === UPLOAD_APP_PATH ||
      path.startsWith(`${UPLOAD_APP_PATH}/`) ||
      path.startsWith(`${UPLOAD_APP_PATH}?`))
  );
}
