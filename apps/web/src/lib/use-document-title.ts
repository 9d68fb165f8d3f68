import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The upload app's pages (/upload/…) name the upload app in the tab, the others Raccolta. */
function inUploadApp(): boolean {
  const { pathname } = window.location;
  return pathname === '/upload' || pathname.startsWith('/upload/');
}

/**
 * Names the page in the browser tab ("Sign in · Raccolta", "Choose a team · Raccolta upload")
 * while the calling page is shown, and puts the previous title back when it goes. `null` while
 * the name is not known yet (a team still loading) leaves the title as it is.
 */
export function useDocumentTitle(page: string | null): void {
  const { t } = useTranslation();
  const title =
    page === null
      ? null
      : t(inUploadApp() ? 'documentTitle.upload' : 'documentTitle.app', { page });
  useEffect(() => {
    if (title === null) return;
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
