import type { Locale } from '@raccolta/contracts';

export type MailBlock =
  | { kind: 'text'; text: string }
  | { kind: 'button'; label: string; url: string; secondary?: boolean }
  | { kind: 'note'; text: string }
  /** Lines each linking somewhere (a digest's collections). */
  | { kind: 'links'; items: { text: string; url: string; detail?: string }[] }
  /** Linked images loaded from their URLs, never attached (a digest's thumbnails). */
  | { kind: 'images'; images: { src: string; href: string; alt: string }[] };

/** Where a newsletter e-mail's reader unsubscribes. */
export interface UnsubscribeLinks {
  /** The web page, linked in the footer. */
  page: string;
  /** The API URL for RFC 8058 one-click POSTs, in the List-Unsubscribe header. */
  oneClick: string;
  /** Why the e-mail came, instead of the newsletter's sentence (digests). */
  reason?: string;
}

/** A mail as plain content; the layout turns it into both parts, so they always say the same. */
export interface MailContent {
  subject: string;
  greeting: string;
  blocks: MailBlock[];
  /** Newsletter e-mails only: the footer says why it came and how to stop it. */
  unsubscribe?: UnsubscribeLinks;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  /** The one-click unsubscribe URL for the List-Unsubscribe header (newsletter e-mails). */
  listUnsubscribe?: string;
}

interface Chrome {
  signature: string;
  footer: string;
  fallback: string;
  newsletterFooter: string;
  unsubscribe: string;
}

const chrome: Record<Locale, Chrome> = {
  en: {
    signature: 'The Raccolta team',
    footer:
      'You received this e-mail from Raccolta because of an action involving your address. If you know nothing about it, you can ignore it.',
    fallback: "If the button doesn't work, copy this link into your browser:",
    newsletterFooter:
      'You receive this e-mail because you subscribed to the Raccolta newsletter with this address.',
    unsubscribe: 'Unsubscribe',
  },
  it: {
    signature: 'Il team di Raccolta',
    footer:
      "Hai ricevuto questa e-mail da Raccolta in seguito a un'azione che riguarda il tuo indirizzo. Se non ne sai nulla, puoi ignorarla.",
    fallback: 'Se il pulsante non funziona, copia questo link nel browser:',
    newsletterFooter:
      'Ricevi questa e-mail perché hai iscritto questo indirizzo alla newsletter di Raccolta.',
    unsubscribe: "Annulla l'iscrizione",
  },
};

const PRIMARY = '#1976d2';

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

export function renderLayout(content: MailContent, locale: Locale): RenderedMail {
  // A header line cannot carry a line break; names typed by users might.
  const subject = content.subject.replace(/\s+/g, ' ').trim();
  const rendered = { subject, html: html(content, subject, locale), text: text(content, locale) };
  return content.unsubscribe
    ? { ...rendered, listUnsubscribe: content.unsubscribe.oneClick }
    : rendered;
}

function text(content: MailContent, locale: Locale): string {
  const t = chrome[locale];
  const parts = [content.greeting];
  for (const block of content.blocks) {
    parts.push(textBlock(block));
  }
  const footer = content.unsubscribe
    ? `${content.unsubscribe.reason ?? t.newsletterFooter}\n${t.unsubscribe}:\n${content.unsubscribe.page}`
    : t.footer;
  parts.push(t.signature, `--\n${footer}`);
  return `${parts.join('\n\n')}\n`;
}

function textBlock(block: MailBlock): string {
  switch (block.kind) {
    case 'button':
      return `${block.label}:\n${block.url}`;
    case 'links':
      return block.items
        .map((item) => `- ${item.text}${item.detail ? ` (${item.detail})` : ''}\n  ${item.url}`)
        .join('\n');
    case 'images':
      return block.images.map((image) => `${image.alt}: ${image.href}`).join('\n');
    default:
      return block.text;
  }
}

function html(content: MailContent, subject: string, locale: Locale): string {
  const t = chrome[locale];
  const body = content.blocks.map((block) => {
    switch (block.kind) {
      case 'text':
        return `<p style="margin:0 0 16px">${escapeHtml(block.text)}</p>`;
      case 'note':
        return `<p style="margin:0 0 16px;font-size:13px;color:#616161">${escapeHtml(block.text)}</p>`;
      case 'button':
        return button(block.label, block.url, block.secondary ?? false, t.fallback);
      case 'links':
        return links(block.items);
      case 'images':
        return images(block.images);
    }
  });
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f5f5f5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f5f5f5">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;font-family:Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#212121">
<tr><td style="padding:24px 32px 8px;font-size:20px;font-weight:bold;color:${PRIMARY}">Raccolta</td></tr>
<tr><td style="padding:8px 32px 24px">
<p style="margin:0 0 16px">${escapeHtml(content.greeting)}</p>
${body.join('\n')}
<p style="margin:0">${escapeHtml(t.signature)}</p>
</td></tr>
</table>
<p style="max-width:560px;margin:16px auto 0;font-family:Roboto,Helvetica,Arial,sans-serif;font-size:12px;line-height:1.5;color:#757575">${footerHtml(content, t)}</p>
</td></tr>
</table>
</body>
</html>
`;
}

function footerHtml(content: MailContent, t: Chrome): string {
  if (!content.unsubscribe) return escapeHtml(t.footer);
  const href = escapeHtml(content.unsubscribe.page);
  const reason = content.unsubscribe.reason ?? t.newsletterFooter;
  return `${escapeHtml(reason)} <a href="${href}" style="color:#616161">${escapeHtml(t.unsubscribe)}</a>`;
}

function button(label: string, url: string, secondary: boolean, fallback: string): string {
  const href = escapeHtml(url);
  const style = secondary
    ? `display:inline-block;padding:10px 22px;border:1px solid ${PRIMARY};border-radius:4px;color:${PRIMARY};text-decoration:none;font-weight:bold`
    : `display:inline-block;padding:11px 23px;border-radius:4px;background:${PRIMARY};color:#ffffff;text-decoration:none;font-weight:bold`;
  return `<p style="margin:0 0 8px"><a href="${href}" style="${style}">${escapeHtml(label)}</a></p>
<p style="margin:0 0 16px;font-size:12px;color:#757575;word-break:break-all">${escapeHtml(fallback)}<br><a href="${href}" style="color:${PRIMARY}">${href}</a></p>`;
}

function links(items: { text: string; url: string; detail?: string }[]): string {
  const rows = items.map(
    (item) =>
      `<li style="margin:0 0 8px"><a href="${escapeHtml(item.url)}" style="color:${PRIMARY};font-weight:bold">${escapeHtml(item.text)}</a>${item.detail ? `<br><span style="font-size:13px;color:#616161">${escapeHtml(item.detail)}</span>` : ''}</li>`,
  );
  return `<ul style="margin:0 0 16px;padding:0 0 0 20px">\n${rows.join('\n')}\n</ul>`;
}

/** Thumbnails as linked images, three to a row; the mail stays readable with images blocked. */
function images(list: { src: string; href: string; alt: string }[]): string {
  const cells = list.map(
    (image) =>
      `<a href="${escapeHtml(image.href)}" style="display:inline-block;margin:0 8px 8px 0"><img src="${escapeHtml(image.src)}" alt="${escapeHtml(image.alt)}" width="150" height="150" style="display:block;width:150px;height:150px;object-fit:cover;border-radius:4px;border:0"></a>`,
  );
  return `<p style="margin:0 0 8px;line-height:0">${cells.join('')}</p>`;
}
