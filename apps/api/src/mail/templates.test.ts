import type { Locale } from '@raccolta/contracts';
import { describe, expect, it } from 'vitest';
import { MAIL_TEMPLATES, renderMail, type MailTemplate, type MailVars } from './templates.js';

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
};

const render = (template: MailTemplate, locale: Locale) =>
  renderMail(template, locale, samples[template].vars);

const htmlAttr = (url: string) => url.replaceAll('&', '&amp;');

describe('mail templates', () => {
  it.each(MAIL_TEMPLATES)(
    '%s renders in English and Italian with its links in both parts',
    (template) => {
      const en = render(template, 'en');
      const it = render(template, 'it');
      expect(en.subject).not.toBe(it.subject);
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
      // The footer is there in both languages.
      expect(en.text).toContain('Raccolta because of an action');
      expect(it.text).toContain("in seguito a un'azione");
    },
  );

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
