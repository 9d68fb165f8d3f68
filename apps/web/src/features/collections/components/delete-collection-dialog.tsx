import type { Collection } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useOutcomeToast } from '../../../components/snackbar';
import { useDeleteCollectionMutation } from '../api/delete-collection';

/**
 * Asks before deleting a collection for everyone, saying how many files go with it; reports the
 * outcome in a toast.
 */
export function DeleteCollectionDialog({
  collection,
  onClose,
}: {
  collection: Collection;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const outcome = useOutcomeToast();
  const mutation = useDeleteCollectionMutation();
  const count = collection.filesCount;
  return (
    <ConfirmDialog
      open
      title={t('collections.delete.title', { name: collection.name })}
      confirmLabel={t('collections.actions.delete')}
      destructive
      pending={mutation.isPending}
      onClose={onClose}
      onConfirm={() =>
        mutation.mutate(
          collection,
          outcome(t('collections.delete.done', { name: collection.name }), onClose),
        )
      }
    >
      {count === 0 ? t('collections.delete.textEmpty') : t('collections.delete.text', { count })}
    </ConfirmDialog>
  );
}
