import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { createAliasRequestSchema, type Team } from '@raccolta/contracts';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { useErrorToast, useSnackbar } from '../../../components/snackbar';
import { useCreateAliasMutation } from '../api/create-alias';

// The contracts alias rules (trimmed, lower-cased, 3–30, letters, digits and single hyphens).
const aliasFormSchema = createAliasRequestSchema.pick({ alias: true });
type AliasForm = z.infer<typeof aliasFormSchema>;

/**
 * New alias (spec §2): enter and validate, then confirm — an alias can never be changed — then
 * create. Cancel on the confirmation goes back to the field with the alias kept; a failed
 * creation closes the dialog and shows the error as a toast, as the spec asks.
 */
export function AddAliasDialog({ team, onClose }: { team: Team; onClose: () => void }) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const showError = useErrorToast();
  const titleId = useId();
  const [confirming, setConfirming] = useState<string | null>(null);
  const { control, handleSubmit, setValue } = useForm<AliasForm>({
    resolver: zodResolver(aliasFormSchema),
    defaultValues: { alias: '' },
  });
  const mutation = useCreateAliasMutation(team.teamId);

  const onValidate = handleSubmit(({ alias }) => {
    // Show what will be saved: the rules trim and lower-case it.
    setValue('alias', alias);
    setConfirming(alias);
  });

  const create = (alias: string) =>
    mutation.mutate(alias, {
      onSuccess: (created) => {
        show(t('team.alias.success', { alias: created.alias }), 'success');
        onClose();
      },
      onError: (error) => {
        onClose();
        showError(error);
      },
    });

  return (
    <Dialog
      open
      onClose={mutation.isPending ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{t('team.alias.title')}</DialogTitle>
      {confirming === null ? (
        <Box component="form" noValidate onSubmit={(event) => void onValidate(event)}>
          <DialogContent sx={{ pt: 0 }}>
            <DialogContentText sx={{ mb: 2 }}>{t('team.alias.text')}</DialogContentText>
            <FormTextField
              control={control}
              name="alias"
              label={t('team.alias.label')}
              helperText={t('team.alias.help')}
              autoComplete="off"
              autoFocus
              required
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('actions.cancel')}</Button>
            <Button type="submit" variant="contained">
              {t('team.alias.next')}
            </Button>
          </DialogActions>
        </Box>
      ) : (
        <>
          <DialogContent sx={{ pt: 0 }}>
            <Stack spacing={2}>
              <DialogContentText>
                {t('team.alias.confirmText', { team: team.name })}
              </DialogContentText>
              <Paper variant="outlined" sx={{ px: 2, py: 1.5, textAlign: 'center' }}>
                <Typography
                  sx={{
                    fontFamily: 'ui-monospace, monospace',
                    fontSize: '1.25rem',
                    wordBreak: 'break-all',
                  }}
                >
                  {confirming}
                </Typography>
              </Paper>
              <Alert severity="warning">{t('team.alias.permanent')}</Alert>
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setConfirming(null)} disabled={mutation.isPending}>
              {t('actions.cancel')}
            </Button>
            <Button
              variant="contained"
              onClick={() => create(confirming)}
              loading={mutation.isPending}
            >
              {t('actions.confirm')}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
