import type { FileItem } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useOutcomeToast } from '../../../components/snackbar';
import { useDeleteFileMutation } from '../api/delete-file';

/** Asks before deleting a file for everyone; reports the outcome in a toast. */
export function DeleteFileDialog({ file, onClose }: { file: FileItem; onClose: () => void }) {
  const { t } = useTranslation();
  const outcome = useOutcomeToast();
  const mutation = useDeleteFileMutation();
  return (
    <ConfirmDialog
      open
      title={t('files.delete.title', { name: file.name })}
      confirmLabel={t('files.actions.delete')}
      destructive
      pending={mutation.isPending}
      onClose={onClose}
      onConfirm={() =>
        mutation.mutate(file, outcome(t('files.delete.done', { name: file.name }), onClose))
      }
    >
      {t('files.delete.text')}
    </ConfirmDialog>
  );
}
