import ts from 'typescript';

/**
 * Finds text a person would read that is written in a component instead of coming from the
 * locales. Used by the unit tests only (never bundled): it parses a file with the TypeScript
 * compiler and reports, with its line:
 * - JSX text, and string literals shown as JSX children (`<b>{'Hi'}</b>`);
 * - literals given to a user-visible JSX attribute (see `isUserVisibleName`), also inside an
 *   object written in the attribute (`slotProps={{ htmlInput: { 'aria-label': '…' } }}`);
 * - literals given to the snackbar (`show`, `snackbar.show`, …), to `useDocumentTitle` or
 *   assigned to `document.title`.
 *
 * A text is language when it holds a letter (Unicode category L); punctuation, symbols ("·", "—",
 * "%", "©") and numbers are not. Only the written parts of a template literal count, so
 * `${size} · ${date}` passes and `${count} files` does not.
 */
export interface HardCodedString {
  file: string;
  line: number;
  /** Where the text is: `JSX text`, `attribute title`, `snackbar`, `document title`, … */
  where: string;
  text: string;
}

const USER_VISIBLE_NAMES = new Set([
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
]);

/** The listed names, and any name ending in Label, Text, Title, Message or Placeholder. */
export function isUserVisibleName(name: string): boolean {
  return (
    USER_VISIBLE_NAMES.has(name) || /[a-z](?:Label|Text|Title|Message|Placeholder)$/.test(name)
  );
}

/** Calls whose first argument is shown to the user. */
const SHOWING_CALLS = new Set([
  'show',
  'showMessage',
  'enqueueSnackbar',
  'toast',
  'useDocumentTitle',
]);

const HAS_LETTER = /\p{L}/u;

export function isLanguage(text: string): boolean {
  return HAS_LETTER.test(text);
}

/** The written (not computed) texts an expression can evaluate to. */
function writtenTexts(expression: ts.Expression): string[] {
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) {
    return [expression.text];
  }
  if (ts.isTemplateExpression(expression)) {
    return [expression.head.text, ...expression.templateSpans.map((span) => span.literal.text)];
  }
  if (
    ts.isParenthesizedExpression(expression) ||
    ts.isAsExpression(expression) ||
    ts.isSatisfiesExpression(expression) ||
    ts.isNonNullExpression(expression)
  ) {
    return writtenTexts(expression.expression);
  }
  if (ts.isConditionalExpression(expression)) {
    return [...writtenTexts(expression.whenTrue), ...writtenTexts(expression.whenFalse)];
  }
  if (ts.isBinaryExpression(expression)) {
    const operator = expression.operatorToken.kind;
    if (operator === ts.SyntaxKind.AmpersandAmpersandToken) return writtenTexts(expression.right);
    if (
      operator === ts.SyntaxKind.BarBarToken ||
      operator === ts.SyntaxKind.QuestionQuestionToken ||
      operator === ts.SyntaxKind.PlusToken
    ) {
      return [...writtenTexts(expression.left), ...writtenTexts(expression.right)];
    }
  }
  return [];
}

function propertyName(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  return undefined;
}

function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

function isDocumentTitle(expression: ts.Expression): boolean {
  return (
    ts.isPropertyAccessExpression(expression) &&
    expression.name.text === 'title' &&
    ts.isIdentifier(expression.expression) &&
    expression.expression.text === 'document'
  );
}

export function findHardCodedStrings(file: string, source: string): HardCodedString[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
  const found: HardCodedString[] = [];

  const report = (node: ts.Node, where: string, texts: string[]) => {
    const text = texts.filter(isLanguage).join(' … ').replace(/\s+/g, ' ').trim();
    if (text === '') return;
    const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
    found.push({ file, line: line + 1, where, text });
  };

  /** Objects written in a user-visible place (slot props, snackbar options): their texts. */
  const checkObject = (expression: ts.Expression, where: string): void => {
    if (ts.isObjectLiteralExpression(expression)) {
      for (const property of expression.properties) {
        if (!ts.isPropertyAssignment(property)) continue;
        const name = propertyName(property.name);
        if (name !== undefined && isUserVisibleName(name)) {
          report(property.initializer, `${where} ${name}`, writtenTexts(property.initializer));
        }
        checkObject(property.initializer, where);
      }
    } else if (ts.isArrayLiteralExpression(expression)) {
      for (const element of expression.elements) checkObject(element, where);
    } else if (ts.isConditionalExpression(expression)) {
      checkObject(expression.whenTrue, where);
      checkObject(expression.whenFalse, where);
    } else if (
      ts.isParenthesizedExpression(expression) ||
      ts.isAsExpression(expression) ||
      ts.isSatisfiesExpression(expression)
    ) {
      checkObject(expression.expression, where);
    }
  };

  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node) && !node.containsOnlyTriviaWhiteSpaces) {
      report(node, 'JSX text', [node.text]);
    } else if (
      ts.isJsxExpression(node) &&
      node.expression !== undefined &&
      (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))
    ) {
      report(node, 'JSX text', writtenTexts(node.expression));
    } else if (ts.isJsxAttribute(node) && node.initializer !== undefined) {
      const name = ts.isIdentifier(node.name) ? node.name.text : node.name.getText(sourceFile);
      const where = `attribute ${name}`;
      const value = node.initializer;
      if (isUserVisibleName(name)) {
        if (ts.isStringLiteral(value)) report(value, where, [value.text]);
        else if (ts.isJsxExpression(value) && value.expression !== undefined) {
          report(value, where, writtenTexts(value.expression));
        }
      }
      if (ts.isJsxExpression(value) && value.expression !== undefined) {
        checkObject(value.expression, where);
      }
    } else if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      const [first] = node.arguments;
      if (name !== undefined && SHOWING_CALLS.has(name) && first !== undefined) {
        const where = name === 'useDocumentTitle' ? 'document title' : `call ${name}`;
        report(first, where, writtenTexts(first));
        for (const argument of node.arguments) checkObject(argument, where);
      }
    } else if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      isDocumentTitle(node.left)
    ) {
      report(node.right, 'document title', writtenTexts(node.right));
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

export function formatHardCodedString({ file, line, where, text }: HardCodedString): string {
  return `${file}:${line} ${where}: «${text}»`;
}
