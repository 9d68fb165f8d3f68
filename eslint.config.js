import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import i18next from 'eslint-plugin-i18next';

const webSrc = 'apps/web/src';
// Read beside this file, so ESLint run from any folder of the repository finds it.
const webFeatures = readdirSync(new URL(`${webSrc}/features`, import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** Tests and their helpers may put features and the app together; the zones hold for the rest. */
const webTestFiles = [
  `${webSrc}/**/*.test.{ts,tsx}`,
  `${webSrc}/**/test/**`,
  `${webSrc}/**/test-fixtures.{ts,tsx}`,
];

/**
 * Names of JSX attributes (and of properties in objects written in an attribute) whose value a
 * person reads: the listed names, and any name ending in Label, Text, Title, Message or
 * Placeholder (`confirmLabel`, `helperText`).
 */
const userVisibleNames = [
  'alt',
  'aria-description',
  'aria-label',
  'aria-placeholder',
  'aria-roledescription',
  'aria-valuetext',
  'caption',
  'description',
  'heading',
  'helperText',
  'label',
  'message',
  'placeholder',
  'primary',
  'secondary',
  'subheader',
  'subtitle',
  'title',
  'tooltip',
];
const userVisibleName = `^(?:${userVisibleNames.join('|')}|.*[a-z](?:Label|Text|Title|Message|Placeholder))$`;
/** A text is language when it holds a letter; punctuation, symbols and numbers are not. */
const letterless = /^[^\p{L}]*$/u;
const hasLetter = '/\\p{L}/u';
const showingCall = '/^(?:show|showMessage|enqueueSnackbar|toast|useDocumentTitle)$/';
const literalText = `Literal[value=${hasLetter}]`;
const templateText = `TemplateLiteral:has(> TemplateElement[value.raw=${hasLetter}])`;
const i18nMessage = 'user-visible text belongs in src/i18n/locales (t(…))';
const textIn = (selector, first = false) => [
  { selector: `${selector} > ${literalText}${first ? ':first-child' : ''}`, message: i18nMessage },
  { selector: `${selector} > ${templateText}${first ? ':first-child' : ''}`, message: i18nMessage },
];
/** Object properties with a user-visible name, under `selector`, whose value is written text. */
const propertyTextIn = (selector) =>
  ['name', 'value'].flatMap((key) => [
    {
      selector: `${selector} Property[key.${key}=/${userVisibleName}/][value.value=${hasLetter}]`,
      message: i18nMessage,
    },
    {
      selector: `${selector} Property[key.${key}=/${userVisibleName}/] > ${templateText}`,
      message: i18nMessage,
    },
  ]);

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'e2e/artifacts/**',
      'e2e/test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The web app's layers (docs/architecture.md): a feature imports shared code and its own files,
    // never another feature nor the app; the app layer composes features; shared code imports
    // neither.
    files: [`${webSrc}/**/*.{ts,tsx}`],
    ignores: webTestFiles,
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            ...webFeatures.map((feature) => ({
              target: `${webSrc}/features/${feature}`,
              from: `${webSrc}/features`,
              except: [`./${feature}`],
              message:
                'a feature imports no other feature: share through src/lib or src/components, or compose in src/app',
            })),
            {
              target: `${webSrc}/features`,
              from: `${webSrc}/app`,
              message: 'features do not import the app layer',
            },
            {
              target: [
                `${webSrc}/components`,
                `${webSrc}/lib`,
                `${webSrc}/i18n`,
                `${webSrc}/theme`,
                `${webSrc}/boot`,
                `${webSrc}/config.ts`,
                `${webSrc}/zod-config.ts`,
              ],
              from: [`${webSrc}/features`, `${webSrc}/app`],
              message: 'shared code imports neither features nor the app layer',
            },
          ],
        },
      ],
    },
  },
  {
    // User-visible text comes from the locales (spec: every text in English and Italian).
    files: [`${webSrc}/**/*.tsx`, `${webSrc}/**/*.ts`],
    ignores: [...webTestFiles, `${webSrc}/**/*.d.ts`],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          message: i18nMessage,
          'should-validate-template': true,
          'jsx-components': { include: [], exclude: ['Trans'] },
          'jsx-attributes': { include: [userVisibleName], exclude: [] },
          words: { exclude: [letterless] },
        },
      ],
      // What the i18next rule does not look at: texts in objects written in a JSX attribute
      // (`slotProps={{ htmlInput: { 'aria-label': … } }}`), given to the snackbar or to
      // useDocumentTitle, or assigned to document.title.
      'no-restricted-syntax': [
        'error',
        ...propertyTextIn('JSXAttribute'),
        ...textIn(`CallExpression[callee.name=${showingCall}]`, true),
        ...textIn(`CallExpression[callee.property.name=${showingCall}]`, true),
        ...propertyTextIn(`CallExpression[callee.name=${showingCall}]`),
        ...propertyTextIn(`CallExpression[callee.property.name=${showingCall}]`),
        ...textIn("AssignmentExpression[left.object.name='document'][left.property.name='title']"),
      ],
    },
  },
  {
    // The web tests share their modules (isolate: false, apps/web/vitest.config.ts): a module
    // mocked in one file may already be imported, unmocked, by the component an earlier file
    // loaded. Tests stub what the browser lacks instead (globals, prototypes, fetch).
    files: [`${webSrc}/**/*.test.{ts,tsx}`],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.object.name='vi'][callee.property.name=/^(mock|doMock)$/]",
          message:
            'The web tests share their modules: stub globals, prototypes or fetch instead of vi.mock.',
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
);
