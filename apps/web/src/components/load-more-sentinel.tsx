import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export interface LoadMoreSentinelProps {
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
}

/**
 * The end of an infinitely scrolled list: asks for the next page when it comes near the viewport.
 * The observer is made again after every page, because a sentinel still in view after a short
 * page would otherwise never report again. The button is the way on for keyboards and for
 * browsers without IntersectionObserver.
 */
export function LoadMoreSentinel({ hasMore, loading, onLoadMore }: LoadMoreSentinelProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const latest = useRef(onLoadMore);
  useEffect(() => {
    latest.current = onLoadMore;
  });

  useEffect(() => {
    const element = ref.current;
    if (element === null || !hasMore || loading || typeof IntersectionObserver === 'undefined') {
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) latest.current();
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasMore, loading]);

  if (!hasMore && !loading) return null;
  return (
    <Box ref={ref} sx={{ display: 'flex', justifyContent: 'center', py: 1.5 }}>
      {loading ? (
        <CircularProgress size={24} aria-label={t('common.loading')} />
      ) : (
        <Button size="small" onClick={onLoadMore}>
          {t('actions.loadMore')}
        </Button>
      )}
    </Box>
  );
}
