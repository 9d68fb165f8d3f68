import { cloneElement, type ReactElement, type ReactNode } from 'react';

const TAG = /<([a-zA-Z][\w-]*)>([\s\S]*?)<\/\1>/g;

/**
 * A translated text with named tags (`Read the <privacy>Privacy Policy</privacy>.`), each tag's
 * content rendered inside the element given for its name, the text around them as it is. A tag
 * without an element stays as written; tags do not nest. What react-i18next's Trans does for
 * these texts, without its HTML parser on every page that shows one.
 */
export function RichText({
  text,
  components,
}: {
  text: string;
  components: Record<string, ReactElement<{ children?: ReactNode }>>;
}) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(TAG)) {
    const [whole, name = '', inner = ''] = match;
    const element = components[name];
    if (element === undefined) continue;
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(cloneElement(element, { key: parts.length }, inner));
    last = match.index + whole.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}
