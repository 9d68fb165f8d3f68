import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CollectionUploads } from '../hooks/use-collection-uploads';
import { useInterruptedUploads } from '../hooks/use-interrupted-uploads';
import { matchChosenFiles, type Mismatch } from '../utils/resume-match';
import { CaptureButtons } from './capture-buttons';
import { InterruptedUploads } from './interrupted-uploads';
import { MismatchedFiles } from './mismatched-files';
import { UploadQueuePanel } from './upload-queue-panel';

const sameFile = (a: File, b: File) =>
  a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

/**
 * Take photos, choose files, and the queue of one collection's uploads: progress, retry, the
 * uploads an earlier visit left unfinished. The same for members and for guests through a link;
 * `disabled` holds the buttons back (a guest who has not given their name yet).
 */
export function UploadControls({
  uploads,
  disabled = false,
}: {
  uploads: CollectionUploads;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const interrupted = useInterruptedUploads(uploads);
  const [mismatches, setMismatches] = useState<readonly Mismatch[]>([]);
  const { queue } = uploads;

  // Files that are an interrupted upload resume it by themselves; those that only look like one
  // wait for the person's word (MismatchedFiles); the rest are new uploads.
  const receive = (files: File[], again: boolean) => {
    const matched = matchChosenFiles(files, interrupted, again);
    const resumeAs = new Map(matched.resume.map(({ file, fingerprint }) => [file, fingerprint]));
    queue.add([...matched.resume.map(({ file }) => file), ...matched.fresh], resumeAs);
    if (matched.mismatched.length > 0) {
      setMismatches((shown) => [
        ...shown.filter((old) => !matched.mismatched.some((m) => sameFile(m.file, old.file))),
        ...matched.mismatched,
      ]);
    }
  };
  const settle = (mismatch: Mismatch) =>
    setMismatches((shown) => shown.filter((other) => other !== mismatch));

  return (
    <Stack spacing={2}>
      <CaptureButtons onFiles={(files) => receive(files, false)} disabled={disabled} />
      <MismatchedFiles
        mismatches={mismatches}
        onUploadNew={(mismatch) => {
          settle(mismatch);
          queue.add([mismatch.file]);
        }}
        onSkip={settle}
      />
      <InterruptedUploads
        uploads={interrupted}
        onChosen={(files) => receive(files, true)}
        onDiscard={(upload) => void queue.terminateStored(upload.fingerprint)}
      />
      <UploadQueuePanel
        entries={uploads.entries}
        onRetry={(id) => queue.retry(id)}
        onCancel={(id) => void queue.cancel(id)}
        onUploadAnyway={(id) => queue.uploadAnyway(id)}
        onClear={() => queue.clearFinished()}
      />
      {uploads.entries.length === 0 && interrupted.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('uploadApp.upload.hint')}
        </Typography>
      )}
    </Stack>
  );
}
