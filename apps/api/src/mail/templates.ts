import {
  ASSIGNABLE_ROLES,
  isTimeZone,
  type AssignableRole,
  type Locale,
} from '@raccolta/contracts';
import { z } from 'zod';
import { renderLayout, type MailContent, type RenderedMail } from './layout.js';

// Only http(s): a `javascript:` or `data:` link must never become a button.
const link = z.url({ protocol: /^https?$/ });
const name = z.string().trim().min(1).max(200).optional();
const label = z.string().trim().min(1).max(200);
/** Newsletter e-mails: the web page in the footer, the one-click URL in List-Unsubscribe. */
const unsubscribe = z.object({ page: link, oneClick: link });

/** Bounds of a newsletter issue, so one admin command cannot queue megabytes per recipient. */
export const NEWSLETTER_MAX_PARAGRAPHS = 200;
export const NEWSLETTER_PARAGRAPH_MAX_LENGTH = 5000;

/** The variables of each template; the send-mail job validates stored payloads against these. */
/** The upload app (/upload) on the origin the invitation's own links point at. */
function uploadAppLink(acceptLink: string): string {
  return `${new URL(acceptLink).origin}/upload`;
}

export const mailVarsSchemas = {
  verifyEmail: z.object({ link, name }),
  resetPassword: z.object({ link, name }),
  invitation: z.object({
    teamName: label,
    inviterName: label,
    role: z.enum(ASSIGNABLE_ROLES),
    acceptLink: link,
    rejectLink: link,
    /** Epoch ms. */
    expiresAt: z.number().int(),
  }),
  downloadReady: z.object({
    collectionName: label,
    link,
    name,
    /** Zips the archive is split into; 1 when it is one. */
    parts: z.number().int().min(1).optional(),
    /** Epoch ms when it is deleted. */
    expiresAt: z.number().int().optional(),
  }),
  /**
   * Issue #36: a collection's deadline is near and the reader has uploaded nothing to it.
   * `link`: the collection in the upload app; `deadlineAt` (epoch ms) is shown in `timeZone`.
   */
  collectionReminder: z.object({
    collectionName: label,
    teamName: label,
    link,
    name,
    deadlineAt: z.number().int(),
    timeZone: z.string().refine((zone) => isTimeZone(zone)),
  }),
  /** `link`: the collection, where the download can be requested again. */
  downloadFailed: z.object({ collectionName: label, link, name }),
  /**
   * An account security event (auth/security-notices.ts). `at`: epoch ms of the event; `browser`
   * and `os`: the new device (newDevice), each absent when unrecognised; `resetLink`: the "This wasn't
   * me" button, the forgot-password page with the address filled in.
   */
  securityNotice: z.object({
    kind: z.enum(['newDevice', 'passwordChanged', 'secondFactorChanged', 'passkeyAdded']),
    name,
    browser: label.optional(),
    os: label.optional(),
    at: z.number().int(),
    resetLink: link,
  }),
  /** Double opt-in: `link` opens the web page that confirms. Not a newsletter e-mail yet. */
  subscriptionConfirm: z.object({ link, validHours: z.number().int().positive() }),
  /** The first newsletter e-mail, sent once the subscription is confirmed. */
  newsletterWelcome: z.object({ unsubscribe }),
  /**
   * A digest of what arrived (digests/): the team, the files' total, each collection with its
   * count, uploaders and link, up to six thumbnails (signed, expiring rendition links, loaded by
   * the mail client), the settings link and the one-click unsubscribe.
   */
  digest: z.object({
    name,
    teamName: label,
    frequency: z.enum(['daily', 'instant']),
    total: z.number().int().positive(),
    collections: z
      .array(
        z.object({
          name: label,
          count: z.number().int().positive(),
          uploaders: z.array(label).max(10),
          /** Uploaders beyond those named. */
          others: z.number().int().nonnegative(),
          link,
        }),
      )
      .min(1)
      .max(100),
    /** Collections beyond those listed. */
    moreCollections: z.number().int().nonnegative(),
    thumbnails: z.array(z.object({ src: link, href: link, alt: label })).max(6),
    settingsLink: link,
    unsubscribe,
  }),
  /** An issue sent with `npm run admin -- send-newsletter`. */
  newsletterIssue: z.object({
    subject: label,
    paragraphs: z
      .array(z.string().trim().min(1).max(NEWSLETTER_PARAGRAPH_MAX_LENGTH))
      .min(1)
      .max(NEWSLETTER_MAX_PARAGRAPHS),
    unsubscribe,
  }),
};

export type MailTemplate = keyof typeof mailVarsSchemas;
export const MAIL_TEMPLATES = Object.keys(mailVarsSchemas) as MailTemplate[];
export type MailVars = { [K in MailTemplate]: z.infer<(typeof mailVarsSchemas)[K]> };

interface Common {
  hello: (name: string | undefined) => string;
  roles: Record<AssignableRole, string>;
  /** A date and time as a reader of this language writes it; mails go out in UTC. */
  dateTime: (epochMs: number) => string;
}

const dateTime = (locale: string) => (epochMs: number) =>
  new Intl.DateTimeFormat(locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(epochMs);

/** A deadline as a reader of this language writes it, in the zone it was set in. */
const inZone = (locale: string, epochMs: number, timeZone: string) =>
  new Intl.DateTimeFormat(locale, {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone,
  }).format(epochMs);

const common: Record<Locale, Common> = {
  en: {
    hello: (n) => (n ? `Hi ${n},` : 'Hi,'),
    roles: { admin: 'Administrator', uploader: 'Contributor', viewer: 'Viewer' },
    dateTime: dateTime('en-GB'),
  },
  it: {
    hello: (n) => (n ? `Ciao ${n},` : 'Ciao,'),
    roles: { admin: 'Amministratore', uploader: 'Collaboratore', viewer: 'Visualizzatore' },
    dateTime: dateTime('it-IT'),
  },
};

type Compose<K extends MailTemplate> = (vars: MailVars[K], c: Common) => MailContent;

/** Every text of the newsletter e-mails: the confirmation (double opt-in), the welcome, an issue. */
const newsletterTemplates: {
  [K in 'subscriptionConfirm' | 'newsletterWelcome' | 'newsletterIssue']: Record<
    Locale,
    Compose<K>
  >;
} = {
  subscriptionConfirm: {
    en: (v, c) => ({
      subject: 'Confirm your subscription to the Raccolta newsletter',
      greeting: c.hello(undefined),
      blocks: [
        {
          kind: 'text',
          text: 'Someone, hopefully you, asked to receive the Raccolta newsletter at this address. Confirm the subscription to start receiving it.',
        },
        { kind: 'button', label: 'Confirm the subscription', url: v.link },
        {
          kind: 'note',
          text: `The link works for ${v.validHours} hours. If you didn't ask for it, ignore this e-mail: you won't be subscribed, and your address will be deleted.`,
        },
      ],
    }),
    it: (v, c) => ({
      subject: "Conferma l'iscrizione alla newsletter di Raccolta",
      greeting: c.hello(undefined),
      blocks: [
        {
          kind: 'text',
          text: "Qualcuno, speriamo tu, ha chiesto di ricevere la newsletter di Raccolta a questo indirizzo. Conferma l'iscrizione per iniziare a riceverla.",
        },
        { kind: 'button', label: "Conferma l'iscrizione", url: v.link },
        {
          kind: 'note',
          text: `Il link funziona per ${v.validHours} ore. Se non l'hai chiesto tu, ignora questa e-mail: l'iscrizione non sarà attivata e il tuo indirizzo verrà cancellato.`,
        },
      ],
    }),
  },
  newsletterWelcome: {
    en: (v, c) => ({
      subject: 'Welcome to the Raccolta newsletter',
      greeting: c.hello(undefined),
      blocks: [
        {
          kind: 'text',
          text: "Your subscription is confirmed: you'll receive the Raccolta newsletter at this address, with news about the app and tips for collecting files with your team.",
        },
        {
          kind: 'note',
          text: 'You can unsubscribe at any time with the link at the bottom of every newsletter e-mail.',
        },
      ],
      unsubscribe: v.unsubscribe,
    }),
    it: (v, c) => ({
      subject: 'Ti diamo il benvenuto nella newsletter di Raccolta',
      greeting: c.hello(undefined),
      blocks: [
        {
          kind: 'text',
          text: "L'iscrizione è confermata: riceverai la newsletter di Raccolta a questo indirizzo, con le novità dell'app e consigli per raccogliere file con il tuo team.",
        },
        {
          kind: 'note',
          text: "Puoi annullare l'iscrizione in qualsiasi momento con il link in fondo a ogni e-mail della newsletter.",
        },
      ],
      unsubscribe: v.unsubscribe,
    }),
  },
  newsletterIssue: {
    en: (v, c) => ({
      subject: v.subject,
      greeting: c.hello(undefined),
      blocks: v.paragraphs.map((text) => ({ kind: 'text' as const, text })),
      unsubscribe: v.unsubscribe,
    }),
    it: (v, c) => ({
      subject: v.subject,
      greeting: c.hello(undefined),
      blocks: v.paragraphs.map((text) => ({ kind: 'text' as const, text })),
      unsubscribe: v.unsubscribe,
    }),
  },
};

type SecurityVars = MailVars['securityNotice'];
type DigestVars = MailVars['digest'];
type SecurityKind = SecurityVars['kind'];

/** "Firefox on Android", "Firefox su Android", "Firefox", "Android"; undefined when unknown. */
function device(v: SecurityVars, on: string): string | undefined {
  if (v.browser && v.os) return `${v.browser} ${on} ${v.os}`;
  return v.browser ?? v.os;
}

/** The security notices: what happened (per kind), then the same "This wasn't me?" way out. */
const securityTexts: Record<
  Locale,
  {
    subject: Record<SecurityKind, string>;
    what: (v: SecurityVars, c: Common) => string;
    ifYou: Record<SecurityKind, string>;
    notMe: string;
    button: string;
  }
> = {
  en: {
    subject: {
      newDevice: 'New sign-in to your Raccolta account',
      passwordChanged: 'Your Raccolta password was changed',
      secondFactorChanged: 'Your Raccolta two-step verification was changed',
      passkeyAdded: 'A passkey was added to your Raccolta account',
    },
    what: (v, c) => {
      const when = `${c.dateTime(v.at)} (UTC)`;
      switch (v.kind) {
        case 'newDevice':
          return `Your Raccolta account was signed in to from a device it had not been used on before: ${device(v, 'on') ?? 'an unrecognised device'}, on ${when}.`;
        case 'passwordChanged':
          return `The password of your Raccolta account was changed on ${when}. Every device that was signed in has been signed out.`;
        case 'secondFactorChanged':
          return `The two-step verification settings of your Raccolta account were changed on ${when}.`;
        case 'passkeyAdded':
          return `A new passkey was added to your Raccolta account on ${when}: it can now be used to sign in.`;
      }
    },
    ifYou: {
      newDevice: 'If this was you, there is nothing to do.',
      passwordChanged: 'If you changed it, there is nothing to do.',
      secondFactorChanged: 'If you changed them, there is nothing to do.',
      passkeyAdded: 'If you added it, there is nothing to do.',
    },
    notMe:
      "This wasn't you? Choose a new password right away: that signs your account out everywhere. You can also sign out every other device from the Sessions section of your profile.",
    button: "This wasn't me: reset my password",
  },
  it: {
    subject: {
      newDevice: 'Nuovo accesso al tuo account Raccolta',
      passwordChanged: 'La password di Raccolta è stata cambiata',
      secondFactorChanged: 'La verifica in due passaggi di Raccolta è stata modificata',
      passkeyAdded: 'Una passkey è stata aggiunta al tuo account Raccolta',
    },
    what: (v, c) => {
      const when = `${c.dateTime(v.at)} (UTC)`;
      switch (v.kind) {
        case 'newDevice':
          return `È stato effettuato l'accesso al tuo account Raccolta da un dispositivo mai usato prima: ${device(v, 'su') ?? 'un dispositivo non riconosciuto'}, il ${when}.`;
        case 'passwordChanged':
          return `La password del tuo account Raccolta è stata cambiata il ${when}. Tutti i dispositivi collegati sono stati disconnessi.`;
        case 'secondFactorChanged':
          return `Le impostazioni della verifica in due passaggi del tuo account Raccolta sono state modificate il ${when}.`;
        case 'passkeyAdded':
          return `Una nuova passkey è stata aggiunta al tuo account Raccolta il ${when}: ora può essere usata per accedere.`;
      }
    },
    ifYou: {
      newDevice: 'Se eri tu, non devi fare nulla.',
      passwordChanged: "Se l'hai cambiata tu, non devi fare nulla.",
      secondFactorChanged: 'Se le hai modificate tu, non devi fare nulla.',
      passkeyAdded: "Se l'hai aggiunta tu, non devi fare nulla.",
    },
    notMe:
      'Non eri tu? Scegli subito una nuova password: il tuo account verrà disconnesso da tutti i dispositivi. Puoi anche disconnettere gli altri dispositivi dalla sezione Sessioni del tuo profilo.',
    button: 'Non ero io: reimposta la password',
  },
};

function securityNotice(locale: Locale): Compose<'securityNotice'> {
  const t = securityTexts[locale];
  return (v, c) => ({
    subject: t.subject[v.kind],
    greeting: c.hello(v.name),
    blocks: [
      { kind: 'text', text: t.what(v, c) },
      { kind: 'text', text: t.ifYou[v.kind] },
      { kind: 'note', text: t.notMe },
      { kind: 'button', label: t.button, url: v.resetLink },
    ],
  });
}

/** Every text of every mail, English and Italian side by side. */
const templates: { [K in MailTemplate]: Record<Locale, Compose<K>> } = {
  ...newsletterTemplates,
  securityNotice: { en: securityNotice('en'), it: securityNotice('it') },
  digest: {
    en: (v, c) => {
      const who = (col: DigestVars['collections'][number]) =>
        `${col.count === 1 ? '1 new file' : `${col.count} new files`}, from ${[
          ...col.uploaders,
          ...(col.others > 0 ? [`${col.others} more`] : []),
        ].join(', ')}`;
      return {
        subject:
          v.total === 1 ? `1 new file in ${v.teamName}` : `${v.total} new files in ${v.teamName}`,
        greeting: c.hello(v.name),
        blocks: [
          {
            kind: 'text',
            text:
              v.frequency === 'daily'
                ? `Here is what arrived in the team ${v.teamName} since your last digest.`
                : `New files arrived in the team ${v.teamName}.`,
          },
          {
            kind: 'links',
            items: v.collections.map((col) => ({
              text: col.name,
              url: col.link,
              detail: who(col),
            })),
          },
          ...(v.moreCollections > 0
            ? [
                {
                  kind: 'note' as const,
                  text: `And new files in ${v.moreCollections} more collections.`,
                },
              ]
            : []),
          ...(v.thumbnails.length > 0 ? [{ kind: 'images' as const, images: v.thumbnails }] : []),
          {
            kind: 'note',
            text: 'The pictures are links that expire after a few days; open the collection to see the files at any time.',
          },
          { kind: 'button', label: 'Change how often', url: v.settingsLink, secondary: true },
        ],
        unsubscribe: {
          ...v.unsubscribe,
          reason: `You receive this digest as a member of the team ${v.teamName} on Raccolta.`,
        },
      };
    },
    it: (v, c) => {
      const who = (col: DigestVars['collections'][number]) =>
        `${col.count === 1 ? '1 nuovo file' : `${col.count} nuovi file`}, da ${[
          ...col.uploaders,
          ...(col.others > 0 ? [`altri ${col.others}`] : []),
        ].join(', ')}`;
      return {
        subject:
          v.total === 1
            ? `1 nuovo file in ${v.teamName}`
            : `${v.total} nuovi file in ${v.teamName}`,
        greeting: c.hello(v.name),
        blocks: [
          {
            kind: 'text',
            text:
              v.frequency === 'daily'
                ? `Ecco cosa è arrivato nel team ${v.teamName} dal tuo ultimo riepilogo.`
                : `Sono arrivati nuovi file nel team ${v.teamName}.`,
          },
          {
            kind: 'links',
            items: v.collections.map((col) => ({
              text: col.name,
              url: col.link,
              detail: who(col),
            })),
          },
          ...(v.moreCollections > 0
            ? [
                {
                  kind: 'note' as const,
                  text: `E nuovi file in altre ${v.moreCollections} raccolte.`,
                },
              ]
            : []),
          ...(v.thumbnails.length > 0 ? [{ kind: 'images' as const, images: v.thumbnails }] : []),
          {
            kind: 'note',
            text: 'Le immagini sono link che scadono dopo qualche giorno; apri la raccolta per vedere i file in qualsiasi momento.',
          },
          { kind: 'button', label: 'Cambia la frequenza', url: v.settingsLink, secondary: true },
        ],
        unsubscribe: {
          ...v.unsubscribe,
          reason: `Ricevi questo riepilogo come membro del team ${v.teamName} su Raccolta.`,
        },
      };
    },
  },
  verifyEmail: {
    en: (v, c) => ({
      subject: 'Confirm your e-mail address',
      greeting: c.hello(v.name),
      blocks: [
        {
          kind: 'text',
          text: 'Thanks for signing up to Raccolta. Confirm your e-mail address to activate your account.',
        },
        { kind: 'button', label: 'Confirm e-mail address', url: v.link },
        { kind: 'note', text: "If you didn't create a Raccolta account, ignore this message." },
      ],
    }),
    it: (v, c) => ({
      subject: 'Conferma il tuo indirizzo e-mail',
      greeting: c.hello(v.name),
      blocks: [
        {
          kind: 'text',
          text: "Grazie per la registrazione a Raccolta. Conferma il tuo indirizzo e-mail per attivare l'account.",
        },
        { kind: 'button', label: "Conferma l'indirizzo e-mail", url: v.link },
        {
          kind: 'note',
          text: 'Se non hai creato un account su Raccolta, ignora questo messaggio.',
        },
      ],
    }),
  },
  resetPassword: {
    en: (v, c) => ({
      subject: 'Reset your Raccolta password',
      greeting: c.hello(v.name),
      blocks: [
        {
          kind: 'text',
          text: 'We received a request to reset the password of your Raccolta account. Use the button below to choose a new one.',
        },
        { kind: 'button', label: 'Choose a new password', url: v.link },
        {
          kind: 'note',
          text: "If you didn't ask for this, ignore this e-mail: your current password stays valid.",
        },
      ],
    }),
    it: (v, c) => ({
      subject: 'Reimposta la password di Raccolta',
      greeting: c.hello(v.name),
      blocks: [
        {
          kind: 'text',
          text: 'Abbiamo ricevuto una richiesta di reimpostare la password del tuo account Raccolta. Usa il pulsante qui sotto per sceglierne una nuova.',
        },
        { kind: 'button', label: 'Scegli una nuova password', url: v.link },
        {
          kind: 'note',
          text: "Se non l'hai chiesto tu, ignora questa e-mail: la password attuale resta valida.",
        },
      ],
    }),
  },
  invitation: {
    en: (v, c) => ({
      subject: `${v.inviterName} invited you to join ${v.teamName} on Raccolta`,
      greeting: c.hello(undefined),
      blocks: [
        {
          kind: 'text',
          text: `${v.inviterName} invited you to join the team ${v.teamName} on Raccolta with the role of ${c.roles[v.role]}.`,
        },
        { kind: 'button', label: 'Accept the invitation', url: v.acceptLink },
        { kind: 'button', label: 'Decline', url: v.rejectLink, secondary: true },
        ...(v.role === 'uploader'
          ? [
              {
                kind: 'text' as const,
                text: 'As a contributor you upload photos and documents with the Raccolta upload app, on your phone or computer.',
              },
              {
                kind: 'button' as const,
                label: 'Open the upload app',
                url: uploadAppLink(v.acceptLink),
                secondary: true,
              },
            ]
          : []),
        {
          kind: 'note',
          text: `The invitation expires on ${c.dateTime(v.expiresAt)} (UTC). If you don't know who invited you, you can ignore this e-mail.`,
        },
      ],
    }),
    it: (v, c) => ({
      subject: `${v.inviterName} ti ha invitato a unirti a ${v.teamName} su Raccolta`,
      greeting: c.hello(undefined),
      blocks: [
        {
          kind: 'text',
          text: `${v.inviterName} ti ha invitato a unirti al team ${v.teamName} su Raccolta con il ruolo di ${c.roles[v.role]}.`,
        },
        { kind: 'button', label: "Accetta l'invito", url: v.acceptLink },
        { kind: 'button', label: 'Rifiuta', url: v.rejectLink, secondary: true },
        ...(v.role === 'uploader'
          ? [
              {
                kind: 'text' as const,
                text: "Come collaboratore carichi foto e documenti con l'app di caricamento di Raccolta, dal telefono o dal computer.",
              },
              {
                kind: 'button' as const,
                label: "Apri l'app di caricamento",
                url: uploadAppLink(v.acceptLink),
                secondary: true,
              },
            ]
          : []),
        {
          kind: 'note',
          text: `L'invito scade il ${c.dateTime(v.expiresAt)} (UTC). Se non sai chi ti ha invitato, puoi ignorare questa e-mail.`,
        },
      ],
    }),
  },
  downloadReady: {
    en: (v, c) => ({
      subject: `Your download of “${v.collectionName}” is ready`,
      greeting: c.hello(v.name),
      blocks: [
        {
          kind: 'text',
          text:
            (v.parts ?? 1) > 1
              ? `The archive of the collection “${v.collectionName}” you requested is ready to download, in ${v.parts} parts: each is a zip that opens on its own.`
              : `The archive of the collection “${v.collectionName}” you requested is ready to download.`,
        },
        {
          kind: 'button',
          label: (v.parts ?? 1) > 1 ? 'Download the parts' : 'Download the archive',
          url: v.link,
        },
        {
          kind: 'note',
          text:
            v.expiresAt === undefined
              ? 'You need to be signed in to Raccolta to download it.'
              : `You need to be signed in to Raccolta to download it. It stays available until ${c.dateTime(v.expiresAt)} (UTC).`,
        },
      ],
    }),
    it: (v, c) => ({
      subject: `Il download di «${v.collectionName}» è pronto`,
      greeting: c.hello(v.name),
      blocks: [
        {
          kind: 'text',
          text:
            (v.parts ?? 1) > 1
              ? `L'archivio della raccolta «${v.collectionName}» che hai richiesto è pronto per il download, in ${v.parts} parti: ognuna è uno zip che si apre da solo.`
              : `L'archivio della raccolta «${v.collectionName}» che hai richiesto è pronto per il download.`,
        },
        {
          kind: 'button',
          label: (v.parts ?? 1) > 1 ? 'Scarica le parti' : "Scarica l'archivio",
          url: v.link,
        },
        {
          kind: 'note',
          text:
            v.expiresAt === undefined
              ? "Per scaricarlo devi aver effettuato l'accesso a Raccolta."
              : `Per scaricarlo devi aver effettuato l'accesso a Raccolta. Resta disponibile fino al ${c.dateTime(v.expiresAt)} (UTC).`,
        },
      ],
    }),
  },
  collectionReminder: {
    en: (v, c) => ({
      subject: `Reminder: “${v.collectionName}” is due ${inZone('en-GB', v.deadlineAt, v.timeZone)}`,
      greeting: c.hello(v.name),
      blocks: [
        {
          kind: 'text',
          text: `The collection “${v.collectionName}” of ${v.teamName} is waiting for your files until ${inZone('en-GB', v.deadlineAt, v.timeZone)} (${v.timeZone}), and you haven't sent any yet.`,
        },
        { kind: 'button', label: 'Upload your files', url: v.link },
        {
          kind: 'note',
          text: 'You receive this reminder because you can upload to this collection. Once you have sent a file, no more reminders come for it.',
        },
      ],
    }),
    it: (v, c) => ({
      subject: `Promemoria: «${v.collectionName}» scade ${inZone('it-IT', v.deadlineAt, v.timeZone)}`,
      greeting: c.hello(v.name),
      blocks: [
        {
          kind: 'text',
          text: `La raccolta «${v.collectionName}» di ${v.teamName} aspetta i tuoi file fino a ${inZone('it-IT', v.deadlineAt, v.timeZone)} (${v.timeZone}) e non ne hai ancora inviato nessuno.`,
        },
        { kind: 'button', label: 'Carica i tuoi file', url: v.link },
        {
          kind: 'note',
          text: 'Ricevi questo promemoria perché puoi caricare file in questa raccolta. Quando avrai inviato un file, non riceverai altri promemoria per questa raccolta.',
        },
      ],
    }),
  },
  downloadFailed: {
    en: (v, c) => ({
      subject: `Your download of “${v.collectionName}” could not be prepared`,
      greeting: c.hello(v.name),
      blocks: [
        {
          kind: 'text',
          text: `Something went wrong while preparing the archive of the collection “${v.collectionName}”, and it was not made. Your files are not affected: request the download again from the collection.`,
        },
        { kind: 'button', label: 'Open the collection', url: v.link },
      ],
    }),
    it: (v, c) => ({
      subject: `Non è stato possibile preparare il download di «${v.collectionName}»`,
      greeting: c.hello(v.name),
      blocks: [
        {
          kind: 'text',
          text: `Qualcosa è andato storto durante la preparazione dell'archivio della raccolta «${v.collectionName}», che non è stato creato. I tuoi file non ne risentono: richiedi di nuovo il download dalla raccolta.`,
        },
        { kind: 'button', label: 'Apri la raccolta', url: v.link },
      ],
    }),
  },
};

/** Subject, HTML and text of a mail; the variables are validated (links must be http or https). */
export function renderMail<K extends MailTemplate>(
  template: K,
  locale: Locale,
  vars: MailVars[K],
): RenderedMail {
  const compose: Compose<K> = templates[template][locale];
  const checked = mailVarsSchemas[template].parse(vars) as MailVars[K];
  return renderLayout(compose(checked, common[locale]), locale);
}
