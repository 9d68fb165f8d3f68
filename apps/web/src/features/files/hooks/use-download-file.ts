import type { FileItem } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { ERROR_TOAST_DURATION_MS, useSnackbar } from '../../../components/snackbar';
import { useDownloadFileMutation } from '../api/download-file';

/** Downloads a file through a fresh signed link; a failure is the downloadingFile toast (§8). */
export function useDownloadFile() {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const mutation = useDownloadFileMutation();
  return {
    download: (file: FileItem) =>
      mutation.mutate(file, {
        onError: () =>
          show(t('files.errors.downloadingFile'), 'error', {
            autoHideDuration: ERROR_TOAST_DURATION_MS,
          }),
      }),
    /** The file whose link is being fetched, if any. */
    pendingFileId: mutation.isPending ? mutation.variables.fileId : null,
  };
}
