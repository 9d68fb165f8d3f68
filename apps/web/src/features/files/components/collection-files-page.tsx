import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { NOT_FOUND_PATH } from '../../../app/paths';
import { useErrorText } from '../../../lib/error-text';
import { useTeamQuery } from '../../teams';
import { isClientError } from '../utils/client-error';
import { CollectionFilesScreen } from './collection-files-screen';

/**
 * /teams/{teamId or alias}/collections/{collectionId}: the files of a collection. Like the team
 * dashboard, any 4xx loading the team (or the collection) goes to /404.
 */
export function CollectionFilesPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { teamRef = '', collectionId = '' } = useParams();
  const query = useTeamQuery(teamRef);

  if (isClientError(query.error)) return <Navigate to={NOT_FOUND_PATH} replace />;
  if (query.data !== undefined) {
    // Keyed: another collection starts with its own uploads, preview and dialogs.
    return (
      <CollectionFilesScreen
        key={`${query.data.teamId}/${collectionId}`}
        team={query.data}
        collectionId={collectionId}
      />
    );
  }
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, sm: 6 } }}>
      {query.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void query.refetch()}>
              {t('actions.retry')}
            </Button>
          }
        >
          {errorText(query.error)}
        </Alert>
      ) : (
        <Stack direction="row" spacing={2} role="status" sx={{ alignItems: 'center' }}>
          <CircularProgress size={24} />
          <Typography>{t('files.loadingCollection')}</Typography>
        </Stack>
      )}
    </Container>
  );
}
