import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The repository's own ESLint configuration (eslint.config.js), run on snippets placed at paths of
 * the web app, with the two rules it holds for the web app's structure and texts: the layer zones
 * (import-x/no-restricted-paths) and the texts that belong in the locales
 * (i18next/no-literal-string, with no-restricted-syntax for what that rule does not see). Type
 * information is left out: neither rule needs it, and a snippet belongs to no TypeScript project.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..') + path.sep;
const checked = new Set([
  'import-x/no-restricted-paths',
  'i18next/no-literal-string',
  'no-restricted-syntax',
]);
const eslint = new ESLint({
  cwd: repoRoot,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId }) => checked.has(ruleId),
});

/** `line rule` for each problem found in `code` placed at `file` (relative to apps/web/src). */
async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${repoRoot}apps/web/src/${file}` });
  expect(result?.messages.filter((message) => message.fatal)).toEqual([]);
  return (result?.messages ?? []).map(
    (message) => `${String(message.line)} ${message.ruleId ?? ''}`,
  );
}

// The first run loads the configuration, its plugins and the TypeScript parser: seconds on a busy
// machine, so it happens here rather than in the first test.
beforeAll(async () => {
  await eslint.lintText('export {};', { filePath: `${repoRoot}apps/web/src/lib/probe.ts` });
}, 120_000);

const ZONES = 'import-x/no-restricted-paths';
const TEXT = 'i18next/no-literal-string';
const SYNTAX = 'no-restricted-syntax';

describe('layer zones', () => {
  it('stop a feature from importing another feature, through its barrel or a file', async () => {
    expect(
      await problems(
        'features/collections/components/probe.tsx',
        [
          "import { DownloadPage } from '../../downloads';",
          "import { FileTable } from '../../files/components/file-table';",
          'export const parts = [DownloadPage, FileTable];',
        ].join('\n'),
      ),
    ).toEqual([`1 ${ZONES}`, `2 ${ZONES}`]);
  });

  it('stop a feature from importing the app layer', async () => {
    expect(
      await problems(
        'features/files/components/probe.tsx',
        "import { router } from '../../../app/router';\nexport const probe = router;",
      ),
    ).toEqual([`1 ${ZONES}`]);
  });

  it('stop shared code from importing features or the app layer', async () => {
    for (const file of ['lib/probe.ts', 'components/probe.tsx', 'i18n/probe.ts']) {
      expect(
        await problems(
          file,
          [
            "import { TrashPage } from '../features/trash';",
            "import { App } from '../app/app';",
            'export const parts = [TrashPage, App];',
          ].join('\n'),
        ),
        file,
      ).toEqual([`1 ${ZONES}`, `2 ${ZONES}`]);
    }
  });

  it('let a feature import shared code and its own files, and the app import features', async () => {
    expect(
      await problems(
        'features/files/components/probe.tsx',
        [
          "import { formatFileSize } from '../../../lib/format-file-size';",
          "import { PageLoadState } from '../../../components/page-load-state';",
          "import { FileTable } from './file-table';",
          "import { fileKeys } from '../../../lib/files/file-keys';",
          'export const parts = [formatFileSize, PageLoadState, FileTable, fileKeys];',
        ].join('\n'),
      ),
    ).toEqual([]);
    expect(
      await problems(
        'app/probe.tsx',
        "import { TrashPage } from '../features/trash';\nexport const probe = TrashPage;",
      ),
    ).toEqual([]);
  });

  it('leave tests free to put features and the app together', async () => {
    expect(
      await problems(
        'features/files/components/probe.test.tsx',
        "import { router } from '../../../app/router';\nexport const probe = router;",
      ),
    ).toEqual([]);
  });
});

describe('texts outside the locales', () => {
  it('reports JSX text and literals given to user-visible attributes, with their line', async () => {
    expect(
      await problems(
        'features/files/components/probe.tsx',
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
      ),
    ).toEqual([
      `3 ${TEXT}`,
      // JSX text is reported where its node starts, right after the tag that opens it.
      `3 ${TEXT}`,
      `5 ${TEXT}`,
      `5 ${TEXT}`,
      `6 ${TEXT}`,
      `7 ${SYNTAX}`,
      `7 ${TEXT}`,
      `8 ${TEXT}`,
    ]);
  });

  it('reports texts given to the snackbar and the document title', async () => {
    expect(
      await problems(
        'lib/probe.ts',
        [
          "show('Saved', 'success');",
          "snackbar.show(t('done'), 'info', { action: { label: 'Undo', onClick } });",
          "useDocumentTitle('Teams');",
          'document.title = `Raccolta ${name}`;',
        ].join('\n'),
      ),
    ).toEqual([`1 ${SYNTAX}`, `2 ${SYNTAX}`, `3 ${SYNTAX}`, `4 ${SYNTAX}`]);
  });

  it('lets translated texts, punctuation, symbols, numbers and class names pass', async () => {
    expect(
      await problems(
        'features/files/components/probe.tsx',
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
      ),
    ).toEqual([]);
  });

  it('leaves tests free to write texts', async () => {
    expect(
      await problems(
        'features/files/components/probe.test.tsx',
        'export const probe = <b>Hello</b>;',
      ),
    ).toEqual([]);
  });
});
