import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Spec §2: a new path starts at the top; query or hash changes keep the position. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
