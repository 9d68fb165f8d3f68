import ContentCopy from '@mui/icons-material/ContentCopy';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import FolderOpenOutlined from '@mui/icons-material/FolderOpenOutlined';
import PrintOutlined from '@mui/icons-material/PrintOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type { Collection, UploadLink } from '@raccolta/contracts';
import { useEffect, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSnackbar } from '../../../components/snackbar';
import { collectionPagePath } from '../../../lib/collections/collection-keys';
import {
  useCreateUploadLinkMutation,
  useToggleUploadLinkMutation,
  useUploadLinksQuery,
} from '../api/upload-links';
import { downloadQrPng, qrSvg, svgDataUrl } from '../utils/qr-code';
import { uploadLinkPosterPath } from '../utils/upload-link-paths';

export interface UploadLinksDialogProps {
  collection: Collection;
  onClose: () => void;
}

/** The link's URL as a QR code (SVG); the encoder loads only when a link is shown. */
export function LinkQrCode({ url, label, size }: { url: string; label: string; size: number }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void qrSvg(url, size).then((value) => {
      if (live) setSvg(value);
    });
    return () => {
      live = false;
    };
  }, [url, size]);
  const box = { width: size, height: size, maxWidth: '100%', flexShrink: 0 };
  if (svg === null) return <Box sx={box} />;
  return (
    <Box
      component="img"
      src={svgDataUrl(svg)}
      alt={label}
      sx={{ ...box, height: 'auto', aspectRatio: '1', bgcolor: '#fff', borderRadius: 1 }}
    />
  );
}

function LinkCard({ link, collection }: { link: UploadLink; collection: Collection }) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const toggle = useToggleUploadLinkMutation(collection.teamId, collection.collectionId);
  const name = link.label ?? t('uploadLinks.unnamed');
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: 'center' }}>
        <LinkQrCode url={link.url} label={t('uploadLinks.qrAlt', { name })} size={120} />
        <Stack spacing={0.5} sx={{ minWidth: 0, flex: 1, width: '100%' }}>
          <Typography variant="subtitle2" noWrap>
            {name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('uploadLinks.fileCount', { count: link.fileCount })}
            {link.hasPassword ? ` · ${t('uploadLinks.protected')}` : ''}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
            <Typography
              variant="caption"
              noWrap
              sx={{ minWidth: 0, flex: 1, fontFamily: 'monospace' }}
            >
              {link.url}
            </Typography>
            <Tooltip title={t('uploadLinks.copy')}>
              <IconButton
                size="small"
                aria-label={t('uploadLinks.copyFor', { name })}
                onClick={() => {
                  void navigator.clipboard
                    .writeText(link.url)
                    .then(() => show(t('uploadLinks.copied'), 'success'));
                }}
              >
                <ContentCopy fontSize="small" />
              </IconButton>
            </Tooltip>
          </Stack>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
            <Button
              size="small"
              variant="outlined"
              startIcon={<DownloadOutlined />}
              aria-label={t('uploadLinks.downloadPngFor', { name })}
              onClick={() => {
                void downloadQrPng(link.url, name).catch(() =>
                  show(t('uploadLinks.downloadPngFailed'), 'error'),
                );
              }}
            >
              {t('uploadLinks.downloadPng')}
            </Button>
            <Button
              size="small"
              variant="outlined"
              startIcon={<PrintOutlined />}
              component={RouterLink}
              to={uploadLinkPosterPath(collection.teamId, collection.collectionId, link.linkId)}
              target="_blank"
              aria-label={t('uploadLinks.posterFor', { name })}
            >
              {t('uploadLinks.poster')}
            </Button>
            <Button
              size="small"
              startIcon={<FolderOpenOutlined />}
              component={RouterLink}
              to={`${collectionPagePath(collection.teamId, collection.collectionId)}?link=${link.linkId}`}
              aria-label={t('uploadLinks.showFilesFor', { name })}
            >
              {t('uploadLinks.showFiles')}
            </Button>
          </Stack>
          <FormControlLabel
            control={
              <Switch
                checked={link.enabled}
                disabled={toggle.isPending}
                onChange={(event) =>
                  toggle.mutate({ linkId: link.linkId, enabled: event.target.checked })
                }
              />
            }
            label={link.enabled ? t('uploadLinks.enabled') : t('uploadLinks.disabled')}
          />
        </Stack>
      </Stack>
    </Paper>
  );
}

function NewLinkForm({ collection }: { collection: Collection }) {
  const { t } = useTranslation();
  const create = useCreateUploadLinkMutation(collection.teamId, collection.collectionId);
  const [label, setLabel] = useState('');
  const [password, setPassword] = useState('');
  const [maxFiles, setMaxFiles] = useState('');
  const [requireEmail, setRequireEmail] = useState(false);
  const onSubmit = (event: SyntheticEvent) => {
    event.preventDefault();
    create.mutate(
      {
        ...(label.trim() === '' ? {} : { label: label.trim() }),
        ...(password === '' ? {} : { password }),
        ...(maxFiles === '' ? {} : { maxFiles: Number(maxFiles) }),
        requireName: true,
        requireEmail,
      },
      {
        onSuccess: () => {
          setLabel('');
          setPassword('');
          setMaxFiles('');
          setRequireEmail(false);
        },
      },
    );
  };
  return (
    <Stack component="form" spacing={1.5} onSubmit={onSubmit} noValidate>
      <Typography variant="subtitle2">{t('uploadLinks.newTitle')}</Typography>
      <TextField
        size="small"
        label={t('uploadLinks.label')}
        value={label}
        onChange={(e) => setLabel(e.target.value)}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <TextField
          size="small"
          type="password"
          autoComplete="new-password"
          label={t('uploadLinks.password')}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          sx={{ flex: 1 }}
        />
        <TextField
          size="small"
          type="number"
          label={t('uploadLinks.maxFiles')}
          value={maxFiles}
          onChange={(e) => setMaxFiles(e.target.value)}
          slotProps={{ htmlInput: { min: 1 } }}
          sx={{ flex: 1 }}
        />
      </Stack>
      <FormControlLabel
        control={
          <Switch checked={requireEmail} onChange={(e) => setRequireEmail(e.target.checked)} />
        }
        label={t('uploadLinks.requireEmail')}
      />
      {create.isError && <Alert severity="error">{t('uploadLinks.createFailed')}</Alert>}
      <Box>
        <Button type="submit" variant="contained" disabled={create.isPending}>
          {t('uploadLinks.create')}
        </Button>
      </Box>
    </Stack>
  );
}

/** "Upload links" of a collection's menu: its links for guests, with QR codes, and a new one. */
export function UploadLinksDialog({ collection, onClose }: UploadLinksDialogProps) {
  const { t } = useTranslation();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const links = useUploadLinksQuery(collection.teamId, collection.collectionId);
  return (
    <Dialog open onClose={onClose} fullScreen={phone} fullWidth maxWidth="sm">
      <DialogTitle>{t('uploadLinks.title', { name: collection.name })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {t('uploadLinks.intro')}
          </Typography>
          {links.isPending && <CircularProgress size={24} aria-label={t('uploadLinks.loading')} />}
          {links.isError && <Alert severity="error">{t('uploadLinks.loadFailed')}</Alert>}
          {links.data?.links.length === 0 && (
            <Typography variant="body2">{t('uploadLinks.none')}</Typography>
          )}
          {links.data?.links.map((link) => (
            <LinkCard key={link.linkId} link={link} collection={collection} />
          ))}
          <NewLinkForm collection={collection} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('uploadLinks.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
