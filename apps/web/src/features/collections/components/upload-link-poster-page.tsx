import PrintOutlined from '@mui/icons-material/PrintOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import GlobalStyles from '@mui/material/GlobalStyles';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { Collection, UploadLink } from '@raccolta/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { collectionPagePath } from '../../../lib/collections/collection-keys';
import { useCollectionQuery } from '../../../lib/files/get-collection';
import { useTeamQuery } from '../../../lib/teams/get-team';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useUploadLinksQuery } from '../api/upload-links';
import { shortUrl } from '../utils/qr-code';
import { LinkQrCode } from './upload-links-dialog';

export type PosterSize = 'A4' | 'A5';

/** Sheet widths and heights in millimetres (portrait), and the QR code's printed side. */
const SHEETS: Record<PosterSize, { width: number; height: number; qr: number; title: string }> = {
  A4: { width: 210, height: 297, qr: 130, title: '2.75rem' },
  A5: { width: 148, height: 210, qr: 95, title: '2rem' },
};

const POSTER_ID = 'upload-link-poster';

/**
 * Printing shows the sheet alone, on a page of its size: everything else on the page is hidden
 * (the header, the buttons), the sheet drawn in black on white whatever the theme.
 */
function PrintStyles({ size }: { size: PosterSize }) {
  return (
    <GlobalStyles
      styles={{
        '@page': { size: `${size} portrait`, margin: 0 },
        '@media print': {
          'body *': { visibility: 'hidden' },
          [`#${POSTER_ID}, #${POSTER_ID} *`]: { visibility: 'visible' },
          [`#${POSTER_ID}`]: {
            position: 'absolute',
            left: 0,
            top: 0,
            margin: '0 !important',
            boxShadow: 'none !important',
            border: 'none !important',
          },
        },
      }}
    />
  );
}

function Poster({
  link,
  collection,
  size,
}: {
  link: UploadLink;
  collection: Collection;
  size: PosterSize;
}) {
  const { t } = useTranslation();
  const sheet = SHEETS[size];
  return (
    <Box
      id={POSTER_ID}
      data-size={size}
      sx={{
        // Printed at its real size; on screen as wide as there is room for.
        width: { xs: '100%', print: `${sheet.width}mm` },
        maxWidth: `${sheet.width}mm`,
        aspectRatio: `${sheet.width} / ${sheet.height}`,
        height: { print: `${sheet.height}mm` },
        mx: 'auto',
        bgcolor: '#ffffff',
        color: '#111111',
        boxShadow: 3,
        border: 1,
        borderColor: 'divider',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        gap: { xs: 1.5, sm: 3 },
        p: { xs: 2, sm: '12mm' },
        boxSizing: 'border-box',
        overflow: 'hidden',
      }}
    >
      <Typography
        component="h1"
        sx={{
          fontWeight: 700,
          lineHeight: 1.15,
          fontSize: { xs: '1.5rem', sm: sheet.title },
          overflowWrap: 'anywhere',
          color: 'inherit',
        }}
      >
        {collection.name}
      </Typography>
      <Typography sx={{ fontSize: { xs: '1rem', sm: '1.25rem' }, color: 'inherit' }}>
        {t('uploadLinks.posterText')}
      </Typography>
      <Box sx={{ width: `${sheet.qr}mm`, maxWidth: '80%' }}>
        <LinkQrCode
          url={link.url}
          label={t('uploadLinks.qrAlt', { name: link.label ?? collection.name })}
          size={600}
        />
      </Box>
      <Typography
        sx={{
          fontFamily: 'monospace',
          fontSize: { xs: '0.75rem', sm: size === 'A4' ? '0.95rem' : '0.75rem' },
          overflowWrap: 'anywhere',
          color: 'inherit',
        }}
      >
        {shortUrl(link.url)}
      </Typography>
      <Typography sx={{ fontSize: '0.85rem', color: '#555555' }}>
        {t('uploadLinks.posterNoAccount')}
      </Typography>
    </Box>
  );
}

function PosterScreen({
  teamId,
  teamRef,
  collectionId,
  linkId,
}: {
  teamId: string;
  teamRef: string;
  collectionId: string;
  linkId: string;
}) {
  const { t } = useTranslation();
  const [size, setSize] = useState<PosterSize>('A4');
  const links = useUploadLinksQuery(teamId, collectionId);
  const collection = useCollectionQuery(teamId, collectionId);
  const link = links.data?.links.find((candidate) => candidate.linkId === linkId);
  useDocumentTitle(
    collection.data ? t('uploadLinks.posterTitle', { name: collection.data.name }) : null,
  );

  let body;
  if (links.isError || collection.isError || (links.data && !link)) {
    body = <Alert severity="error">{t('uploadLinks.posterNotFound')}</Alert>;
  } else if (!link || !collection.data) {
    body = <CircularProgress aria-label={t('uploadLinks.loading')} />;
  } else {
    body = <Poster link={link} collection={collection.data} size={size} />;
  }

  return (
    <Container maxWidth="md" sx={{ py: { xs: 2, sm: 4 } }}>
      <PrintStyles size={size} />
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ mb: 3, alignItems: { sm: 'center' }, displayPrint: 'none' }}
      >
        <Typography variant="h6" component="p" sx={{ flex: 1 }}>
          {t('uploadLinks.poster')}
        </Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={size}
          onChange={(_event, value: PosterSize | null) => {
            if (value !== null) setSize(value);
          }}
          aria-label={t('uploadLinks.posterSize')}
        >
          {(Object.keys(SHEETS) as PosterSize[]).map((option) => (
            <ToggleButton key={option} value={option}>
              {option}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Button
          variant="contained"
          startIcon={<PrintOutlined />}
          onClick={() => window.print()}
          disabled={!link}
        >
          {t('uploadLinks.print')}
        </Button>
        <Button component={RouterLink} to={collectionPagePath(teamRef, collectionId)}>
          {t('uploadLinks.backToCollection')}
        </Button>
      </Stack>
      {body}
    </Container>
  );
}

/**
 * /teams/{ref}/collections/{id}/links/{linkId}/poster: an upload link's printable poster (A4 or
 * A5) with the collection's name, the QR code and the link's address, for events.
 */
export function UploadLinkPosterPage() {
  const { t } = useTranslation();
  const { teamRef = '', collectionId = '', linkId = '' } = useParams();
  const team = useTeamQuery(teamRef);
  if (team.data === undefined) {
    return (
      <Container maxWidth="md" sx={{ py: 4 }}>
        {team.isError ? (
          <Alert severity="error">{t('uploadLinks.posterNotFound')}</Alert>
        ) : (
          <CircularProgress aria-label={t('uploadLinks.loading')} />
        )}
      </Container>
    );
  }
  return (
    <PosterScreen
      teamId={team.data.teamId}
      teamRef={teamRef}
      collectionId={collectionId}
      linkId={linkId}
    />
  );
}
