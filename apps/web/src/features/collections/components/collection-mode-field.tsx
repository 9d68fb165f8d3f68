import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import type { CollectionMode } from '@raccolta/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Who sees a collection and uploads into it, in the words of docs/decisions.md ("Shared and
 * private collections"): shared means every contributor of the team sees it and adds files;
 * private means only its creator and the team's managers. Contributors cannot choose (§6): the
 * group shows their collection's fixed choice, disabled, with a sentence saying why.
 */
export function CollectionModeField({
  value,
  onChange,
  disabled,
  chooses,
  creatorName,
}: {
  value: CollectionMode;
  onChange: (mode: CollectionMode) => void;
  disabled?: boolean;
  /** Whether the caller may choose; a contributor may not. */
  chooses: boolean;
  /** The creator's name when it is someone else (editing); absent when it is the caller. */
  creatorName?: string | undefined;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  const helpId = useId();
  const help = !chooses
    ? t('collections.mode.uploaderHelp')
    : value === 'collaborative'
      ? t('collections.mode.sharedHelp')
      : t('collections.mode.privateHelp');
  return (
    <FormControl component="fieldset" disabled={disabled === true || !chooses}>
      <FormLabel id={labelId} component="legend" sx={{ typography: 'body2' }}>
        {t('collections.mode.label')}
      </FormLabel>
      <RadioGroup
        aria-labelledby={labelId}
        aria-describedby={helpId}
        name="mode"
        value={value}
        onChange={(event) => onChange(event.target.value as CollectionMode)}
      >
        <FormControlLabel
          value="collaborative"
          control={<Radio size="small" />}
          label={t('collections.mode.shared')}
        />
        <FormControlLabel
          value="owned"
          control={<Radio size="small" />}
          label={
            creatorName === undefined
              ? t('collections.mode.private')
              : t('collections.mode.privateOf', { name: creatorName })
          }
        />
      </RadioGroup>
      <FormHelperText id={helpId} sx={{ mx: 0 }}>
        {help}
      </FormHelperText>
    </FormControl>
  );
}
