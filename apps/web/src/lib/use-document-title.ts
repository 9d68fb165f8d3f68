import { useEffect } from 'react';

/** Sets the browser tab's title while the calling page is shown, and puts the previous one back. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    if (title === null) return;
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
