import type { Locale } from '@raccolta/contracts';
import { describe, expect, it } from 'vitest';
import { MAIL_TEMPLATES, renderMail, type MailTemplate, type MailVars } from './templates.js';

const UNSUBSCRIBE = {
  page: 'https://app.example/unsubscribe?email=a%40b.it&token=u1',
  oneClick: 'https://app.example/api/subscriptions/unsubscribe?email=a%40b.it&token=u1',
};

const DIGEST_UNSUBSCRIBE = {
  page: 'https://app.example/digests/unsubscribe?team=t1&user=u1&token=x1',
  oneClick: 'https://app.example/api/digests/unsubscribe?team=t1&user=u1&token=x1',
};

const samples: { [K in MailTemplate]: { vars: MailVars[K]; links: string[] } } = {
  verifyEmail: {
    vars: {
      link: 'https://app.example/auth/verify?email=a%40b.it&code=123456&username=anna',
      name: 'Anna',
    },
    links: ['https://app.example/auth/verify?email=a%40b.it&code=123456&username=anna'],
  },
  resetPassword: {
    vars: { link: 'https://app.example/auth/reset?email=a%40b.it&code=987654' },
    links: ['https://app.example/auth/reset?email=a%40b.it&code=987654'],
  },
  invitation: {
    vars: {
      teamName: 'Scuola Verdi',
      inviterName: 'Marta Rossi',
      role: 'uploader',
      acceptLink: 'https://app.example/teams/t1/invitations/accept?key=k1',
      rejectLink: 'https://app.example/teams/t1/invitations/reject?key=k1',
      expiresAt: Date.UTC(2025, 2, 12, 14, 30),
    },
    links: [
      'https://app.example/teams/t1/invitations/accept?key=k1',
      'https://app.example/teams/t1/invitations/reject?key=k1',
      'https://app.example/upload',
    ],
  },
  downloadReady: {
    vars: {
      collectionName: 'Gita 2025',
      link: 'https://app.example/teams/t1/downloads/d1/download',
    },
    links: ['https://app.example/teams/t1/downloads/d1/download'],
  },
  downloadFailed: {
    vars: { collectionName: 'Gita 2025', link: 'https://app.example/teams/t1/collections/c1' },
    links: ['https://app.example/teams/t1/collections/c1'],
  },
  collectionReminder: {
    vars: {
      collectionName: 'Gita 2025',
      teamName: 'Scuola Verdi',
      link: 'https://app.example/upload/teams/t1/collections/c1',
      name: 'Anna',
      deadlineAt: Date.UTC(2025, 2, 12, 17, 0),
      timeZone: 'Europe/Rome',
    },
    links: ['https://app.example/upload/teams/t1/collections/c1'],
  },
  securityNotice: {
    vars: {
      kind: 'newDevice',
      browser: 'Firefox',
      os: 'Android',
      at: Date.UTC(2025, 2, 12, 14, 30),
      resetLink: 'https://app.example/auth/forgot?email=a%40b.it',
    },
    links: ['https://app.example/auth/forgot?email=a%40b.it'],
  },
  subscriptionConfirm: {
    vars: {
      link: 'https://app.example/newsletter/confirm?email=a%40b.it&token=t1',
      validHours: 48,
    },
    links: ['https://app.example/newsletter/confirm?email=a%40b.it&token=t1'],
  },
  digest: {
    vars: {
      name: 'Anna',
      teamName: 'Scuola Verdi',
      frequency: 'daily',
      total: 7,
      collections: [
        {
          name: 'Gita 2025',
          count: 5,
          uploaders: ['Marta', 'Luca'],
          others: 0,
          link: 'https://app.example/teams/t1/collections/c1',
        },
        {
          name: 'Recita',
          count: 2,
          uploaders: ['Marta'],
          others: 3,
          link: 'https://app.example/teams/t1/collections/c2',
        },
      ],
      moreCollections: 0,
      thumbnails: [
        {
          src: 'https://app.example/api/renditions/tok1',
          href: 'https://app.example/teams/t1/collections/c1',
          alt: 'IMG_0001.jpg',
        },
      ],
      settingsLink: 'https://app.example/teams/t1',
      unsubscribe: DIGEST_UNSUBSCRIBE,
    },
    links: ['https://app.example/teams/t1'],
  },
  newsletterWelcome: { vars: { unsubscribe: UNSUBSCRIBE }, links: [] },
  newsletterIssue: {
    vars: {
      subject: 'Spring news',
      paragraphs: ['Uploads resume after a dropped connection.', 'See you next month.'],
      unsubscribe: UNSUBSCRIBE,
    },
    links: [],
  },
};

const NEWSLETTER_TEMPLATES: MailTemplate[] = ['newsletterWelcome', 'newsletterIssue'];

const render = (template: MailTemplate, locale: Locale) =>
  renderMail(template, locale, samples[template].vars);

const htmlAttr = (url: string) => url.replaceAll('&', '&amp;');

describe('mail templates', () => {
  it.each(MAIL_TEMPLATES)(
    '%s renders in English and Italian with its links in both parts',
    (template) => {
      const en = render(template, 'en');
      const it = render(template, 'it');
      // An issue's subject is the one its author wrote for that language.
      if (template !== 'newsletterIssue') expect(en.subject).not.toBe(it.subject);
      expect(en.text).not.toBe(it.text);
      expect(en.html).toContain('<html lang="en">');
      expect(it.html).toContain('<html lang="it">');
      for (const mail of [en, it]) {
        expect(mail.subject).not.toMatch(/[\r\n]/);
        for (const link of samples[template].links) {
          // Plain URL on its own line in the text part, a button (and the fallback link) in HTML.
          expect(mail.text).toContain(`\n${link}\n`);
          expect(mail.html).toContain(`<a href="${htmlAttr(link)}" style="display:inline-block`);
        }
      }
      // The footer is there in both languages: newsletter e-mails say why they came.
      if (NEWSLETTER_TEMPLATES.includes(template)) {
        expect(en.text).toContain('you subscribed to the Raccolta newsletter');
        expect(it.text).toContain('alla newsletter di Raccolta');
      } else if (template === 'digest') {
        expect(en.text).toContain('as a member of the team Scuola Verdi');
        expect(it.text).toContain('come membro del team Scuola Verdi');
      } else {
        expect(en.text).toContain('Raccolta because of an action');
        expect(it.text).toContain("in seguito a un'azione");
        expect(en.listUnsubscribe).toBeUndefined();
      }
    },
  );

  it.each(NEWSLETTER_TEMPLATES)(
    '%s carries its unsubscribe link in the footer and the one-click URL for the headers',
    (template) => {
      for (const locale of ['en', 'it'] as const) {
        const mail = render(template, locale);
        expect(mail.listUnsubscribe).toBe(UNSUBSCRIBE.oneClick);
        expect(mail.text).toContain(`\n${UNSUBSCRIBE.page}\n`);
        expect(mail.html).toContain(`<a href="${htmlAttr(UNSUBSCRIBE.page)}"`);
      }
      expect(render(template, 'en').text).toContain('Unsubscribe:');
      expect(render(template, 'it').text).toContain("Annulla l'iscrizione:");
    },
  );

  it("lists a digest's collections with counts and uploaders, thumbnails as linked images", () => {
    const en = render('digest', 'en');
    const it = render('digest', 'it');
    expect(en.subject).toBe('7 new files in Scuola Verdi');
    expect(it.subject).toBe('7 nuovi file in Scuola Verdi');
    expect(en.text).toContain('- Gita 2025 (5 new files, from Marta, Luca)\n');
    expect(en.text).toContain('- Recita (2 new files, from Marta, 3 more)\n');
    expect(it.text).toContain('- Recita (2 nuovi file, da Marta, altri 3)\n');
    for (const mail of [en, it]) {
      expect(mail.html).toContain(
        '<a href="https://app.example/teams/t1/collections/c1" style="display:inline-block;margin:0 8px 8px 0"><img src="https://app.example/api/renditions/tok1" alt="IMG_0001.jpg"',
      );
      expect(mail.listUnsubscribe).toBe(DIGEST_UNSUBSCRIBE.oneClick);
      expect(mail.text).toContain(`\n${DIGEST_UNSUBSCRIBE.page}\n`);
      expect(mail.html).toContain(`<a href="${htmlAttr(DIGEST_UNSUBSCRIBE.page)}"`);
      expect(mail.html).not.toContain('newsletter');
    }
  });

  it('sends an issue as written, a paragraph per block, in the subject given', () => {
    const mail = render('newsletterIssue', 'it');
    expect(mail.subject).toBe('Spring news');
    expect(mail.text).toContain(
      '\n\nUploads resume after a dropped connection.\n\nSee you next month.\n\n',
    );
    expect(mail.html).toContain('<p style="margin:0 0 16px">See you next month.</p>');
  });

  it('asks to confirm a subscription, saying how long the link works', () => {
    expect(render('subscriptionConfirm', 'en').text).toContain('The link works for 48 hours.');
    expect(render('subscriptionConfirm', 'it').text).toContain('Il link funziona per 48 ore.');
    expect(render('subscriptionConfirm', 'en').listUnsubscribe).toBeUndefined();
  });

  it('says who invited whom, to which team, with which role and until when', () => {
    const en = render('invitation', 'en');
    const it = render('invitation', 'it');
    expect(en.subject).toBe('Marta Rossi invited you to join Scuola Verdi on Raccolta');
    expect(en.text).toContain('with the role of Contributor');
    expect(en.text).toContain('12 March 2025 at 14:30 (UTC)');
    expect(it.subject).toBe('Marta Rossi ti ha invitato a unirti a Scuola Verdi su Raccolta');
    expect(it.text).toContain('con il ruolo di Collaboratore');
    expect(it.text).toContain('12 marzo 2025');
    expect(it.html).toContain('Accetta l&#39;invito');
  });

  it('points contributors, and only them, to the upload app', () => {
    expect(render('invitation', 'en').text).toContain('Raccolta upload app');
    expect(render('invitation', 'it').text).toContain('app di caricamento di Raccolta');
    const admin = renderMail('invitation', 'en', { ...samples.invitation.vars, role: 'admin' });
    expect(admin.text).not.toContain('/upload');
  });

  it.each(['newDevice', 'passwordChanged', 'secondFactorChanged', 'passkeyAdded'] as const)(
    'tells of %s in each language, with the way out for who did not do it',
    (kind) => {
      const vars = {
        kind,
        name: 'Anna',
        at: Date.UTC(2025, 2, 12, 14, 30),
        resetLink: 'https://app.example/auth/forgot?email=a%40b.it',
      };
      const en = renderMail('securityNotice', 'en', vars);
      const it = renderMail('securityNotice', 'it', vars);
      expect(en.text).toContain('12 March 2025');
      expect(it.text).toContain('12 marzo 2025');
      expect(en.text).toContain("This wasn't you?");
      expect(en.text).toContain('sign out every other device');
      expect(it.text).toContain('Non eri tu?');
      expect(it.text).toContain('disconnettere gli altri dispositivi');
      expect(en.text).toContain(`\n${vars.resetLink}\n`);
      expect(it.html).toContain(`href="${htmlAttr(vars.resetLink)}"`);
      for (const other of [
        'newDevice',
        'passwordChanged',
        'secondFactorChanged',
        'passkeyAdded',
      ] as const) {
        if (other === kind) continue;
        expect(renderMail('securityNotice', 'en', { ...vars, kind: other }).subject).not.toBe(
          en.subject,
        );
      }
    },
  );

  it('names the new device, or says it was not recognised', () => {
    const vars = {
      kind: 'newDevice' as const,
      at: 0,
      resetLink: 'https://app.example/auth/forgot?email=a%40b.it',
    };
    const iphone = { ...vars, browser: 'Safari', os: 'iOS' };
    expect(renderMail('securityNotice', 'en', iphone).text).toContain('before: Safari on iOS, on');
    expect(renderMail('securityNotice', 'it', iphone).text).toContain('prima: Safari su iOS, il');
    expect(renderMail('securityNotice', 'en', vars).text).toContain('an unrecognised device');
    expect(renderMail('securityNotice', 'it', vars).text).toContain(
      'un dispositivo non riconosciuto',
    );
  });

  it('greets by name when there is one', () => {
    expect(render('verifyEmail', 'it').text.startsWith('Ciao Anna,\n')).toBe(true);
    expect(render('resetPassword', 'en').text.startsWith('Hi,\n')).toBe(true);
  });

  it('escapes variables in HTML and keeps them as typed in the text part', () => {
    const nasty = `<img src=x onerror="alert('x')"> & Co`;
    const mail = renderMail('invitation', 'en', {
      ...samples.invitation.vars,
      teamName: nasty,
      inviterName: 'Eve\r\nBcc: victim@example.com',
      acceptLink: 'https://app.example/accept?key=a"b&c=<d>',
    });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('a"b');
    expect(mail.html).toContain(
      '&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &amp; Co',
    );
    expect(mail.html).toContain('href="https://app.example/accept?key=a&quot;b&amp;c=&lt;d&gt;"');
    expect(mail.text).toContain(nasty);
    expect(mail.subject).toBe(
      `Eve Bcc: victim@example.com invited you to join ${nasty} on Raccolta`,
    );
  });

  it('refuses links that are not http or https', () => {
    expect(() => renderMail('resetPassword', 'en', { link: 'javascript:alert(1)' })).toThrow();
  });
});
