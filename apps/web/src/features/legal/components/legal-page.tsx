import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LegalDocument } from '@raccolta/contracts';
import { useTranslation } from 'react-i18next';
import { RichText } from '../../../components/rich-text';
import type { Language } from '../../../i18n';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { legalDocument, type LegalSection } from '../content/legal-document';

/** A comfortable reading measure: long lines of legal text are hard to follow. */
const MEASURE = '70ch';

function contentLanguage(language: string | undefined): Language {
  return language?.startsWith('it') ? 'it' : 'en';
}

/**
 * "5 March 2025" / "5 marzo 2025": day, month name and year in the page's language. The British
 * order is used for English so the date reads the same way in both languages and is never
 * mistaken for 3 May. The version is a calendar date, so it is formatted in UTC.
 */
export function formatVersionDate(version: string, language: Language): string {
  return new Intl.DateTimeFormat(language === 'it' ? 'it-IT' : 'en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${version}T00:00:00Z`));
}

function Section({ section, index }: { section: LegalSection; index: number }) {
  const headingId = `legal-section-${index + 1}`;
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography
        id={headingId}
        variant="h5"
        component="h2"
        sx={{ fontSize: { xs: '1.2rem', sm: '1.4rem' }, fontWeight: 600, mb: 1 }}
      >
        {section.heading}
      </Typography>
      <Typography variant="body1" sx={{ mb: section.bullets.length > 0 ? 1 : 0 }}>
        {section.description}
      </Typography>
      {section.bullets.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 3, display: 'grid', gap: 0.75 }}>
          {section.bullets.map((bullet) => (
            <Typography component="li" variant="body1" key={bullet}>
              {bullet}
            </Typography>
          ))}
        </Box>
      )}
      {section.conclusion !== undefined && (
        <Typography variant="body1" sx={{ mt: 1 }}>
          {section.conclusion}
        </Typography>
      )}
    </Box>
  );
}

/**
 * A versioned legal text (spec §2): title, the version date, then sections of heading,
 * description, bullets and conclusion. The text follows the interface language as it changes.
 */
export function LegalPage({ document }: { document: LegalDocument }) {
  const { t, i18n } = useTranslation();
  const language = contentLanguage(i18n.resolvedLanguage ?? i18n.language);
  const content = legalDocument(document, language);
  useDocumentTitle(t(`legal.${document}.documentTitle`));

  return (
    <Container
      component="article"
      lang={language}
      aria-labelledby="legal-title"
      sx={{ py: { xs: 3, sm: 6 }, maxWidth: MEASURE, overflowWrap: 'break-word' }}
      maxWidth={false}
    >
      <Typography
        id="legal-title"
        variant="h4"
        component="h1"
        sx={{ fontSize: { xs: '1.75rem', sm: '2.125rem' }, mb: 1 }}
      >
        {content.title}
      </Typography>
      <Typography variant="subtitle1" color="text.secondary" sx={{ mb: { xs: 3, sm: 4 } }}>
        <RichText
          text={t('legal.version', { date: formatVersionDate(content.version, language) })}
          components={{ time: <time dateTime={content.version} /> }}
        />
      </Typography>
      <Stack spacing={{ xs: 3, sm: 4 }}>
        {content.sections.map((section, index) => (
          <Section key={section.heading} section={section} index={index} />
        ))}
      </Stack>
    </Container>
  );
}

export function TermsPage() {
  return <LegalPage document="terms" />;
}

export function PrivacyPage() {
  return <LegalPage document="privacy" />;
}
