import Star from '@mui/icons-material/Star';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { canChangeTeamField, type MemberRole, type Team } from '@raccolta/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DetailList, DetailRow } from '../../../components/detail-list';
import { useErrorText } from '../../../lib/error-text';
import { formatDate } from '../../../lib/format-date';
import { useUpdateTeamMutation } from '../api/update-team';

type TeamSwitchField = 'stripLocation' | 'requireSecondFactor';

/** The texts of a team setting that is a switch. */
interface SwitchTexts {
  /** The switch's label, for those who may change it. */
  label: string;
  /** The sentence for everyone else, when the setting is on and when it is off. */
  on: string;
  off: string;
  help: string;
}

/**
 * A boolean team setting: a switch that saves at once for those who may change it (`canChange`),
 * a sentence for everyone else. `helpForAll`: the help text is shown to everyone, not only with
 * the switch.
 */
function TeamSwitchSetting({
  team,
  field,
  canChange,
  texts,
  helpForAll = false,
}: {
  team: Team;
  field: TeamSwitchField;
  canChange: boolean;
  texts: SwitchTexts;
  helpForAll?: boolean;
}) {
  const errorText = useErrorText();
  const helpId = useId();
  const mutation = useUpdateTeamMutation();
  return (
    <>
      {canChange ? (
        <FormControlLabel
          control={
            <Switch
              checked={team[field]}
              disabled={mutation.isPending}
              slotProps={{ input: { 'aria-describedby': helpId } }}
              onChange={(_event, checked) =>
                mutation.mutate({ original: team, updated: { ...team, [field]: checked } })
              }
            />
          }
          label={texts.label}
        />
      ) : (
        <Typography>{team[field] ? texts.on : texts.off}</Typography>
      )}
      {(canChange || helpForAll) && (
        <Typography id={helpId} variant="body2" color="text.secondary">
          {texts.help}
        </Typography>
      )}
      {mutation.error !== null && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {errorText(mutation.error)}
        </Alert>
      )}
    </>
  );
}

/**
 * Team details (spec §2): read-only, but for the photo location setting, which owners and admins
 * (`canChange`) switch here.
 */
export function TeamDetailsDialog({
  team,
  canChange = false,
  role = null,
  onClose,
}: {
  team: Team;
  canChange?: boolean;
  /** The caller's role: the owner alone switches the second-factor requirement. */
  role?: MemberRole | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{t('team.details.title')}</DialogTitle>
      <DialogContent>
        <DetailList>
          <DetailRow label={t('team.details.name')}>{team.name}</DetailRow>
          <DetailRow label={t('team.details.description')}>
            {team.description ?? (
              <Typography component="span" color="text.secondary">
                {t('team.details.noDescription')}
              </Typography>
            )}
          </DetailRow>
          <DetailRow label={t('team.details.mode')}>
            <Typography>{t(`teams.modes.${team.mode}`)}</Typography>
            <Typography variant="body2" color="text.secondary">
              {t(`teams.modeHelp.${team.mode}`)}
            </Typography>
          </DetailRow>
          <DetailRow label={t('team.details.aliases')}>
            {team.aliases.length === 0 ? (
              <Typography component="span" color="text.secondary">
                {t('team.details.noAliases')}
              </Typography>
            ) : (
              <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 0.75 }}>
                {team.aliases.map((alias) => (
                  <Chip
                    key={alias}
                    size="small"
                    label={alias}
                    {...(alias === team.starAlias
                      ? {
                          icon: <Star />,
                          color: 'primary' as const,
                          title: t('team.details.starAlias'),
                        }
                      : {})}
                  />
                ))}
              </Stack>
            )}
          </DetailRow>
          <DetailRow label={t('team.details.starAlias')}>
            {team.starAlias ?? (
              <Typography component="span" color="text.secondary">
                {t('team.details.noAliases')}
              </Typography>
            )}
          </DetailRow>
          <DetailRow label={t('team.details.membersCount')}>{team.membersCount}</DetailRow>
          <DetailRow label={t('team.details.createdAt')}>
            {formatDate(team.createdAt, i18n.language)}
          </DetailRow>
          <DetailRow label={t('team.details.location')}>
            {/* Whether uploads keep their GPS position: owners and admins switch it. */}
            <TeamSwitchSetting
              team={team}
              field="stripLocation"
              canChange={canChange}
              helpForAll
              texts={{
                label: t('team.details.stripLocation'),
                on: t('team.details.locationRemoved'),
                off: t('team.details.locationKept'),
                help: t('team.details.stripLocationHelp'),
              }}
            />
          </DetailRow>
          <DetailRow label={t('team.details.requireTitle')}>
            {/* Whether owners and admins need a second factor: the owner alone switches it. */}
            <TeamSwitchSetting
              team={team}
              field="requireSecondFactor"
              canChange={role !== null && canChangeTeamField(role, 'requireSecondFactor')}
              texts={{
                label: t('team.details.requireSwitch'),
                on: t('team.details.requireOn'),
                off: t('team.details.requireOff'),
                help: t('team.details.requireHelp'),
              }}
            />
          </DetailRow>
        </DetailList>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
