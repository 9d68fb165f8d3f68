import { collectionPagePath } from '../../../lib/collections/collection-keys';

/** The printable poster of an upload link (A4 or A5): its collection's name, QR code, address. */
export function uploadLinkPosterPath(teamRef: string, collectionId: string, linkId: string) {
  return `${collectionPagePath(teamRef, collectionId)}/links/${encodeURIComponent(linkId)}/poster`;
}
