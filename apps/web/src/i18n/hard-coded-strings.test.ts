import { describe, expect, it } from 'vitest';
import {
  findHardCodedStrings,
  formatHardCodedString,
  isLanguage,
  type HardCodedString,
} from './hard-coded-strings';

/**
 * Every source file of the web app except tests and their helpers (`*.test.*`, `test/` folders,
 * `test-fixtures.*`), as text. Vite reads them at collection time, so a file added later is
 * checked without touching this test.
 */
const sources = import.meta.glob<string>(
  [
    '../**/*.{ts,tsx}',
    '!../**/*.test.{ts,tsx}',
    '!../**/test/**',
    '!../**/test-fixtures.{ts,tsx}',
    '!../**/*.d.ts',
  ],
  { query: '?raw', import: 'default', eager: true },
);

/**
 * Texts that are not translated on purpose, each with its reason. `file` is relative to src/.
 * Keep it tiny: a text a person reads belongs in the locales.
 */
const ALLOWED: readonly (Pick<HardCodedString, 'file' | 'text'> & { reason: string })[] = [];

const isAllowed = (found: HardCodedString) =>
  ALLOWED.some((entry) => entry.file === found.file && entry.text === found.text);

const check = (source: string) =>
  findHardCodedStrings('snippet.tsx', source).map(
    (found) => `${found.line} ${found.where}: ${found.text}`,
  );

describe('hard-coded strings checker', () => {
  it('counts as language only what holds a letter', () => {
    expect(isLanguage('Save')).toBe(true);
    expect(isLanguage('è')).toBe(true);
    for (const text of [' · ', '—', '%', '© 2025', '12:30', '…', '/', '(', '×']) {
      expect(isLanguage(text), text).toBe(false);
    }
  });

  it('reports JSX text and literals given to user-visible attributes, with their line', () => {
    const found = check(
      [
        'export function Card({ count }: { count: number }) {',
        '  return (',
        '    <Box aria-label="Files" className="card-title">',
        '      Hello there',
        '      <TextField label={`${count} files`} placeholder={busy ? "Wait" : t("x")} />',
        '      <img alt=\'Logo\' src="/logo.svg" />',
        "      <Dialog slotProps={{ htmlInput: { 'aria-label': 'Name' } }} confirmLabel=\"Go\" />",
        "      <b>{'Shout'}</b>",
        '    </Box>',
        '  );',
        '}',
      ].join('\n'),
    );
    expect(found).toEqual([
      '3 attribute aria-label: Files',
      '4 JSX text: Hello there',
      '5 attribute label: files',
      '5 attribute placeholder: Wait',
      '6 attribute alt: Logo',
      '7 attribute slotProps aria-label: Name',
      '7 attribute confirmLabel: Go',
      '8 JSX text: Shout',
    ]);
  });

  it('reports texts given to the snackbar and the document title', () => {
    const found = check(
      [
        "show('Saved', 'success');",
        "snackbar.show(t('done'), 'info', { action: { label: 'Undo', onClick } });",
        "useDocumentTitle('Teams');",
        'document.title = `Raccolta ${name}`;',
      ].join('\n'),
    );
    expect(found).toEqual([
      '1 call show: Saved',
      '2 call show label: Undo',
      '3 document title: Teams',
      '4 document title: Raccolta',
    ]);
  });

  it('lets translated texts, punctuation, symbols, numbers and class names pass', () => {
    const found = check(
      [
        'export function Row({ size, date }: Props) {',
        '  const { t } = useTranslation();',
        '  useDocumentTitle(t("files.title", { name }));',
        '  return (',
        '    <Box className="row" variant="body2" color="text.secondary" aria-label={t("row")}>',
        '      {size} · {date} — 100% ({count})',
        '      <TextField label={t("fields.name")} title={`${size} · ${date}`} />',
        '      <Trans i18nKey="files.count" values={{ count }} />',
        "      {open && ' / '}",
        '    </Box>',
        '  );',
        '}',
      ].join('\n'),
    );
    expect(found).toEqual([]);
  });
});

describe('the web app', () => {
  it('is read whole by the check', () => {
    const files = Object.keys(sources);
    expect(files.length).toBeGreaterThan(150);
    expect(files).toContain('../app/app.tsx');
    expect(files).toContain('../features/upload-app/components/upload-page.tsx');
    expect(files.some((file) => /\.test\.tsx?$|\/test\/|fixtures/.test(file))).toBe(false);
  });

  it('has no user-visible text outside the locales', () => {
    const found = Object.entries(sources)
      .flatMap(([file, source]) => findHardCodedStrings(file.replace(/^\.\.\//, ''), source))
      .filter((entry) => !isAllowed(entry))
      .map(formatHardCodedString);
    expect(
      found,
      `hard-coded texts (move them into src/i18n/locales):\n${found.join('\n')}`,
    ).toEqual([]);
  });

  it('keeps every allow-list entry in use', () => {
    for (const entry of ALLOWED) {
      const source = sources[`../${entry.file}`];
      expect(source, entry.file).toBeDefined();
      const texts = findHardCodedStrings(entry.file, source ?? '').map((found) => found.text);
      expect(texts, `${entry.file}: ${entry.text}`).toContain(entry.text);
    }
  });
});
