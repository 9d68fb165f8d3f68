/**
 * Starts a browser download of a signed link by following a hidden `<a download>`: the server
 * answers with Content-Disposition attachment, so the page stays where it is, and no popup
 * blocker objects the way it would to window.open after an await.
 */
export function startBrowserDownload(url: string, doc: Document = document): void {
  const anchor = doc.createElement('a');
  anchor.href = url;
  anchor.download = '';
  anchor.rel = 'noopener';
  anchor.hidden = true;
  doc.body.append(anchor);
  anchor.click();
  anchor.remove();
}
