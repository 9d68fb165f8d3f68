import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from '../../../lib/format-file-size';
import { parseFingerprint, type FingerprintParts, type Mismatch } from '../utils/resume-match';

/**
 * "name · size · changed date" of the interrupted and the chosen file. Where the rounded size or
 * the date to the minute read the same but are not, they are written in full (bytes, seconds,
 * and milliseconds when the seconds agree too), so the difference shows.
 */
function useDescriptions(file: File, stored: FingerprintParts) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const sizeOf = (bytes: number, exact: boolean) =>
    exact
      ? `${formatFileSize(bytes, language)} (${new Intl.NumberFormat(language).format(bytes)} B)`
      : formatFileSize(bytes, language);
  const exactSize =
    file.size !== stored.size &&
    formatFileSize(file.size, language) === formatFileSize(stored.size, language);
  const short = new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' });
  const long = new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'medium' });
  const precise = new Intl.DateTimeFormat(language, {
    year: '2-digit',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    fractionalSecondDigits: 3,
  });
  const valid = (epochMs: number) => Number.isFinite(epochMs);
  const differ = (format: Intl.DateTimeFormat) =>
    format.format(file.lastModified) !== format.format(stored.lastModified);
  const dateFormat =
    !valid(file.lastModified) ||
    !valid(stored.lastModified) ||
    file.lastModified === stored.lastModified ||
    differ(short)
      ? short
      : differ(long)
        ? long
        : precise;
  const describe = (name: string, size: number, lastModified: number) =>
    t('uploadApp.mismatch.description', {
      name,
      size: sizeOf(size, exactSize),
      date: valid(lastModified) ? dateFormat.format(lastModified) : '—',
    });
  return {
    interrupted: describe(stored.name, stored.size, stored.lastModified),
    chosen: describe(file.name, file.size, file.lastModified),
  };
}

function Descriptions({ file, stored }: { file: File; stored: FingerprintParts }) {
  const { t } = useTranslation();
  const { interrupted, chosen } = useDescriptions(file, stored);
  return (
    <>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        {t('uploadApp.mismatch.interrupted', { file: interrupted })}
      </Typography>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        {t('uploadApp.mismatch.chosen', { file: chosen })}
      </Typography>
    </>
  );
}

function MismatchNotice({
  mismatch,
  onUploadNew,
  onSkip,
}: {
  mismatch: Mismatch;
  onUploadNew: () => void;
  onSkip: () => void;
}) {
  const { t } = useTranslation();
  const { file, upload } = mismatch;
  const stored = upload === null ? null : parseFingerprint(upload.fingerprint);
  return (
    <Alert severity="warning" component="li" sx={{ '& .MuiAlert-message': { minWidth: 0 } }}>
      <AlertTitle sx={{ overflowWrap: 'anywhere' }}>
        {t('uploadApp.mismatch.title', { name: file.name })}
      </AlertTitle>
      {stored === null ? (
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {t('uploadApp.mismatch.noneNamed', { name: file.name })}
        </Typography>
      ) : (
        <Descriptions file={file} stored={stored} />
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
        <Button size="small" variant="outlined" color="inherit" onClick={onUploadNew}>
          {t('uploadApp.mismatch.uploadNew')}
        </Button>
        <Button size="small" color="inherit" onClick={onSkip}>
          {t('uploadApp.mismatch.skip')}
        </Button>
      </Stack>
    </Alert>
  );
}

/**
 * Files chosen to resume an interrupted upload that are not that file (another size or date, or
 * another name): held back until the person says what they are, since uploading them unasked
 * would add a second copy, or the wrong photo, beside the upload still waiting.
 */
export function MismatchedFiles({
  mismatches,
  onUploadNew,
  onSkip,
}: {
  mismatches: readonly Mismatch[];
  onUploadNew: (mismatch: Mismatch) => void;
  onSkip: (mismatch: Mismatch) => void;
}) {
  const { t } = useTranslation();
  if (mismatches.length === 0) return null;
  return (
    <Stack
      component="ul"
      spacing={1}
      aria-label={t('uploadApp.mismatch.listLabel')}
      sx={{ listStyle: 'none', m: 0, p: 0 }}
    >
      {mismatches.map((mismatch) => (
        <MismatchNotice
          key={`${mismatch.file.name}|${mismatch.file.size}|${mismatch.file.lastModified}`}
          mismatch={mismatch}
          onUploadNew={() => onUploadNew(mismatch)}
          onSkip={() => onSkip(mismatch)}
        />
      ))}
    </Stack>
  );
}
