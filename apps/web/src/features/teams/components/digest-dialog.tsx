import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { DIGEST_FREQUENCIES, type DigestFrequency, type Team } from '@raccolta/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoadState } from '../../../components/page-load-state';
import { useErrorText } from '../../../lib/error-text';
import { useDigestMutation, useDigestQuery } from '../api/digest';

/**
 * "E-mail digest" of the team menu: the caller's own choice of a digest of new files in this
 * team (never, daily, as they arrive), saved as soon as it is picked.
 */
export function DigestDialog({ team, onClose }: { team: Team; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const errorText = useErrorText();
  const query = useDigestQuery(team.teamId);
  const mutation = useDigestMutation(team.teamId);
  const preference = query.data;
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('team.digest.title')}</DialogTitle>
      <DialogContent>
        {preference === undefined ? (
          <PageLoadState
            error={query.error}
            loadingText={t('team.digest.loading')}
            onRetry={() => void query.refetch()}
          />
        ) : preference.available ? (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('team.digest.intro', { name: team.name })}
            </Typography>
            <RadioGroup
              aria-labelledby={titleId}
              value={mutation.isPending ? mutation.variables : preference.frequency}
              onChange={(event) => mutation.mutate(event.target.value as DigestFrequency)}
            >
              {DIGEST_FREQUENCIES.map((frequency) => (
                <FormControlLabel
                  key={frequency}
                  value={frequency}
                  disabled={mutation.isPending}
                  control={<Radio />}
                  label={t(`team.digest.${frequency}`)}
                />
              ))}
            </RadioGroup>
            {mutation.isError && (
              <Alert severity="error" sx={{ mt: 1 }}>
                {errorText(mutation.error)}
              </Alert>
            )}
          </>
        ) : (
          <Alert severity="info">{t('team.digest.unavailable')}</Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
