import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { setServerClockOffset } from '../support/clock.js';
import { apiCreateCollection, apiUploadFile } from '../support/collections.js';
import { backdateDigest, jobStatus, runScheduledJobNow } from '../support/database.js';
import { gradientPng } from '../support/images.js';
import { mailsTo, type Mail } from '../support/mailbox.js';
import { apiJoinedMember, apiOwnerWithTeam } from '../support/owner.js';
import { expect, test } from '../support/test.js';
import { apiCreateTeam, openTeamMenuItem, sessionToken, signInAsOwner } from '../support/teams.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));

const LAYOUTS = [
  { name: 'phone-dark', colorScheme: 'dark', viewport: { width: 375, height: 740 } },
  { name: 'desktop-light', colorScheme: 'light', viewport: { width: 1280, height: 800 } },
] as const;

for (const layout of LAYOUTS) {
  test.describe(`e-mail digest, ${layout.name}`, () => {
    test.use({ colorScheme: layout.colorScheme, viewport: layout.viewport });

    test(`an owner changes their digest from the team menu (${layout.name})`, async ({
      page,
      request,
    }) => {
      const owner = newAccount('digest');
      await createVerifiedAccount(request, owner);
      await signInAsOwner(page, owner.email, owner.password);
      const token = await sessionToken(page);
      const teamId = await apiCreateTeam(request, token, { name: 'Riverside Community Choir' });

      await page.goto(`/teams/${teamId}`);
      await openTeamMenuItem(page, 'E-mail digest');
      const dialog = page.getByRole('dialog', { name: 'E-mail digest' });
      await expect(dialog.getByRole('radio', { name: 'Daily' })).toBeChecked();
      await dialog.getByRole('radio', { name: /As they arrive/ }).check();
      await expect(dialog.getByRole('radio', { name: /As they arrive/ })).toBeChecked();
      await page.screenshot({
        path: `${SCREENSHOT_DIR}digest-setting-${layout.name}.png`,
        animations: 'disabled',
      });
      await dialog.getByRole('button', { name: 'Close' }).click();

      const res = await request.get(`/api/teams/${teamId}/members/@me/digest`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(await res.json()).toEqual({ frequency: 'instant', isDefault: false, available: true });

      // A broken unsubscribe link says so, without calling the API.
      await page.goto('/digests/unsubscribe?team=t&user=u');
      await expect(page.getByText('This unsubscribe link is not valid.')).toBeVisible();
      await page.screenshot({
        path: `${SCREENSHOT_DIR}digest-unsubscribe-invalid-${layout.name}.png`,
        animations: 'disabled',
      });
    });
  });
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Uploads a small PNG named `name` (each name gives other bytes) and answers the file id. */
async function upload(
  request: APIRequestContext,
  token: string,
  teamId: string,
  collectionId: string,
  name: string,
): Promise<string> {
  const seed = Buffer.from(name).reduce((sum, byte) => sum + byte, 0);
  return apiUploadFile(request, token, teamId, collectionId, {
    name,
    mimeType: 'image/png',
    buffer: gradientPng(64 + (seed % 32), 48, [seed % 256, (seed * 7) % 256, 200]),
  });
}

/** Waits until every file of the collections has its thumbnail, so that a digest shows them. */
async function thumbnailsReady(
  request: APIRequestContext,
  token: string,
  teamId: string,
  collectionIds: string[],
): Promise<void> {
  await expect
    .poll(
      async () => {
        let waiting = 0;
        for (const collectionId of collectionIds) {
          const res = await request.get(`/api/teams/${teamId}/collections/${collectionId}/files`, {
            headers: { Authorization: `Bearer ${token}` },
          });
          const { files } = (await res.json()) as { files: { thumbnailUrl: string | null }[] };
          waiting += files.filter((f) => f.thumbnailUrl === null).length;
        }
        return waiting;
      },
      { timeout: 60_000 },
    )
    .toBe(0);
}

/** Runs the scheduled digest job now and waits until that run has finished. */
async function runDigestJob(): Promise<void> {
  const id = await runScheduledJobNow('digests.send');
  await expect.poll(() => jobStatus(id), { timeout: 30_000 }).toBe('succeeded');
}

const digestsTo = async (email: string) =>
  (await mailsTo(email)).filter((m) => / new files? in Riverside Choir$/.test(m.subject));

/** The collection lines of a digest's text part: "- Name (3 new files, from Ugo, Olga)". */
const collectionLines = (mail: Mail) => mail.text.split('\n').filter((l) => l.startsWith('- '));

/** The thumbnails of a digest's HTML part: what each shows (its file's name) and where from. */
function thumbnails(mail: Mail): { alt: string; src: string }[] {
  return [...mail.html.matchAll(/<img src="([^"]+)" alt="([^"]*)"/g)].map((m) => ({
    src: (m[1] ?? '').replaceAll('&amp;', '&'),
    alt: m[2] ?? '',
  }));
}

test.describe('daily digest', () => {
  test('lists exactly the new files, each once; the one-click unsubscribe stops it', async ({
    request,
  }) => {
    test.setTimeout(180_000);
    const {
      owner,
      token: ownerToken,
      teamId,
    } = await apiOwnerWithTeam(request, 'digest-owner', {
      name: 'Riverside Choir',
      nickname: 'Olga',
    });
    const { account: singer, token: singerToken } = await apiJoinedMember(
      request,
      ownerToken,
      teamId,
      'digest-singer',
      { nickname: 'Ugo', role: 'uploader' },
    );
    const concert = await apiCreateCollection(request, ownerToken, teamId, {
      name: 'Concert photos',
    });
    const rehearsal = await apiCreateCollection(request, ownerToken, teamId, {
      name: 'Rehearsal',
    });
    // The owner's digest is daily by default; the uploader's is never.
    const preference = await request.get(`/api/teams/${teamId}/members/@me/digest`, {
      headers: { Authorization: `Bearer ${ownerToken}` },
    });
    expect(await preference.json()).toMatchObject({ frequency: 'daily', isDefault: true });

    try {
      // First day: three photos of the concert from Ugo, two rehearsal photos from Ugo and Olga.
      await upload(request, singerToken, teamId, concert, 'stage-1.png');
      await upload(request, singerToken, teamId, concert, 'stage-2.png');
      await upload(request, singerToken, teamId, rehearsal, 'warm-up.png');
      await upload(request, singerToken, teamId, concert, 'stage-3.png');
      await upload(request, ownerToken, teamId, rehearsal, 'sopranos.png');
      await thumbnailsReady(request, ownerToken, teamId, [concert, rehearsal]);
      // Two minutes on, the files are past the minute a digest lets new files settle.
      setServerClockOffset(2 * MINUTE);
      await runDigestJob();
      await expect.poll(async () => (await digestsTo(owner.email)).length).toBe(1);
      const [first] = await digestsTo(owner.email);
      if (!first) throw new Error('no first digest');
      expect(first.subject).toBe('5 new files in Riverside Choir');
      expect(collectionLines(first)).toEqual([
        '- Concert photos (3 new files, from Ugo)',
        '- Rehearsal (2 new files, from Ugo, Olga)',
      ]);
      expect(first.text).toContain(`/teams/${teamId}/collections/${concert}`);
      expect(first.text).toContain(`/teams/${teamId}/collections/${rehearsal}`);
      const firstThumbnails = thumbnails(first);
      expect(firstThumbnails.map((th) => th.alt).sort()).toEqual([
        'sopranos.png',
        'stage-1.png',
        'stage-2.png',
        'stage-3.png',
        'warm-up.png',
      ]);
      // A thumbnail is a signed link to the picture, not an attachment: it loads as an image.
      const picture = await request.get(firstThumbnails[0]?.src ?? '');
      expect(picture.status()).toBe(200);
      expect(picture.headers()['content-type']).toMatch(/^image\//);
      // The uploader, on "never", got no digest.
      expect(await digestsTo(singer.email)).toEqual([]);

      // The next day: two more concert photos. The second digest lists only them.
      await upload(request, singerToken, teamId, concert, 'encore-1.png');
      await upload(request, ownerToken, teamId, concert, 'encore-2.png');
      await thumbnailsReady(request, ownerToken, teamId, [concert]);
      setServerClockOffset(4 * MINUTE);
      backdateDigest(owner.email, teamId, DAY);
      await runDigestJob();
      await expect.poll(async () => (await digestsTo(owner.email)).length).toBe(2);
      const second = (await digestsTo(owner.email))[1];
      if (!second) throw new Error('no second digest');
      expect(second.subject).toBe('2 new files in Riverside Choir');
      expect(collectionLines(second)).toEqual(['- Concert photos (2 new files, from Ugo, Olga)']);
      expect(
        thumbnails(second)
          .map((th) => th.alt)
          .sort(),
      ).toEqual(['encore-1.png', 'encore-2.png']);

      // The one-click unsubscribe of RFC 8058: a POST of the List-Unsubscribe URL.
      expect(second.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      const oneClick = /^<(.+)>$/.exec(second.headers['list-unsubscribe'] ?? '')?.[1] ?? '';
      expect(new URL(oneClick).pathname).toBe('/api/digests/unsubscribe');
      const unsubscribed = await request.post(oneClick, {
        form: { 'List-Unsubscribe': 'One-Click' },
      });
      expect(unsubscribed.status()).toBe(200);
      expect(await unsubscribed.json()).toEqual({ status: 'unsubscribed' });
      const after = await request.get(`/api/teams/${teamId}/members/@me/digest`, {
        headers: { Authorization: `Bearer ${ownerToken}` },
      });
      expect(await after.json()).toMatchObject({ frequency: 'never', isDefault: false });

      // More files, a day later again: the run finishes and sends nothing.
      await upload(request, singerToken, teamId, rehearsal, 'after-1.png');
      setServerClockOffset(6 * MINUTE);
      backdateDigest(owner.email, teamId, DAY);
      await runDigestJob();
      expect(await digestsTo(owner.email)).toHaveLength(2);
    } finally {
      setServerClockOffset(0);
    }
  });
});
