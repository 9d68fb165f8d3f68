import FilterAltOffOutlined from '@mui/icons-material/FilterAltOffOutlined';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { FileItem } from '@raccolta/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadMoreSentinel } from '../../../components/load-more-sentinel';
import { useErrorText } from '../../../lib/error-text';
import type { useFilesQuery } from '../../../lib/files/list-files';
import { FileTable, type FileTableProps } from './file-table';

export type EmptyKind = 'filtered' | 'mine' | 'none';

function EmptyState({
  kind,
  canUpload,
  wide,
  onClear,
}: {
  kind: EmptyKind;
  canUpload: boolean;
  wide: boolean;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  let title: string;
  let text: string | null;
  if (kind === 'filtered') {
    title = t('files.empty.filteredTitle');
    text = t('files.empty.filteredText');
  } else {
    title = kind === 'mine' ? t('files.empty.mineTitle') : t('files.empty.title');
    if (!canUpload) text = kind === 'mine' ? null : t('files.empty.viewerText');
    else text = wide ? t('files.empty.uploadOrDropText') : t('files.empty.uploadText');
  }
  const Icon = kind === 'filtered' ? FilterAltOffOutlined : InsertDriveFileOutlined;
  return (
    <Paper
      variant="outlined"
      sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center', borderStyle: 'dashed' }}
    >
      <Icon sx={{ fontSize: 48, color: 'text.disabled', mb: 1 }} />
      <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {text !== null && (
        <Typography variant="body2" color="text.secondary">
          {text}
        </Typography>
      )}
      {kind !== 'none' && (
        <Button startIcon={<FilterAltOffOutlined />} onClick={onClear} sx={{ mt: 1.5 }}>
          {t('files.clearFilters')}
        </Button>
      )}
    </Paper>
  );
}

export interface FilesBodyProps extends Omit<FileTableProps, 'files' | 'label'> {
  query: ReturnType<typeof useFilesQuery>;
  files: readonly FileItem[];
  collectionName: string | undefined;
  /** The date filter's from is after its to: the API would refuse the list. */
  rangeInvalid: boolean;
  emptyKind: EmptyKind;
  canUpload: boolean;
  onClearFilters: () => void;
}

/** The list area: loading, error with retry, empty states, or the table with infinite loading. */
export function FilesBody({
  query,
  files,
  collectionName,
  rangeInvalid,
  emptyKind,
  canUpload,
  onClearFilters,
  ...tableProps
}: FilesBodyProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const retry = (
    <Button color="inherit" size="small" onClick={() => void query.refetch()}>
      {t('actions.retry')}
    </Button>
  );

  if (rangeInvalid) return <Alert severity="info">{t('files.invalidRange')}</Alert>;
  if (query.isPending) {
    return (
      <Stack direction="row" spacing={2} role="status" sx={{ alignItems: 'center', py: 2 }}>
        <CircularProgress size={24} aria-hidden />
        <Typography>{t('files.loading')}</Typography>
      </Stack>
    );
  }
  if (query.isError && files.length === 0) {
    return (
      <Alert severity="error" action={retry}>
        {errorText(query.error)}
      </Alert>
    );
  }
  if (files.length === 0) {
    return (
      <EmptyState
        kind={emptyKind}
        canUpload={canUpload}
        wide={tableProps.wide}
        onClear={onClearFilters}
      />
    );
  }

  let pageError: ReactNode = null;
  if (query.isFetchNextPageError) {
    pageError = (
      <Alert
        severity="error"
        sx={{ mt: 1 }}
        action={
          <Button color="inherit" size="small" onClick={() => void query.fetchNextPage()}>
            {t('actions.retry')}
          </Button>
        }
      >
        {errorText(query.error)}
      </Alert>
    );
  }
  return (
    <>
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <FileTable
          files={files}
          label={
            collectionName === undefined
              ? t('files.listLabel')
              : t('files.listLabelOf', { name: collectionName })
          }
          {...tableProps}
        />
      </Paper>
      {pageError ?? (
        <LoadMoreSentinel
          hasMore={query.hasNextPage}
          loading={query.isFetchingNextPage}
          onLoadMore={() => void query.fetchNextPage()}
        />
      )}
    </>
  );
}
