import { describe, expect, it } from 'vitest';
import { createSignedToken } from '../storage/signed-token.js';
import {
  createRenditionToken,
  readRenditionToken,
  renditionExpiry,
  renditionUrl,
  type RenditionGrant,
} from './rendition-links.js';

const SECRET = 'a-secret-for-rendition-links-0123456789';
const grant: RenditionGrant = {
  fileId: '0190c3a4-1111-7aaa-8bbb-000000000001',
  userId: '0190c3a4-2222-7aaa-8bbb-000000000002',
  kind: 'thumbnail',
  expiresAt: 1_900_000_000,
};

describe('rendition tokens', () => {
  it('carry the file, the user, the kind and the expiry', () => {
    const token = createRenditionToken(SECRET, grant);
    expect(readRenditionToken(SECRET, token)).toEqual(grant);
    const preview = { ...grant, kind: 'preview' as const };
    expect(readRenditionToken(SECRET, createRenditionToken(SECRET, preview))).toEqual(preview);
  });

  it('stay well under 1 KB', () => {
    expect(createRenditionToken(SECRET, grant).length).toBeLessThan(300);
  });

  it('refuse any change to the payload or the signature', () => {
    const token = createRenditionToken(SECRET, grant);
    const [segment = '', signature = ''] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ f: grant.fileId, u: grant.userId, k: 'p', e: grant.expiresAt }),
    ).toString('base64url');
    for (const bad of [
      `${forged}.${signature}`,
      `${segment}.${signature.slice(0, -2)}AA`,
      `${segment}.`,
      segment,
      `${token}.x`,
      `${segment}.${signature}=`,
      'x'.repeat(2000),
      '',
    ]) {
      expect(readRenditionToken(SECRET, bad), bad).toBeNull();
    }
    expect(readRenditionToken('another-secret', token)).toBeNull();
  });

  it('are not storage links, nor storage links rendition tokens', () => {
    const storageToken = createSignedToken(SECRET, { k: 'teams/a/original', e: grant.expiresAt });
    expect(readRenditionToken(SECRET, storageToken)).toBeNull();
  });
});

describe('renditionExpiry', () => {
  it('is at least the lifetime away, rounded up to a tenth of it', () => {
    const now = 1_700_000_123_456;
    const exp = renditionExpiry(now, 3600);
    expect(exp).toBeGreaterThanOrEqual(Math.floor(now / 1000) + 3600);
    expect(exp).toBeLessThan(Math.floor(now / 1000) + 3600 + 360);
    expect(exp % 360).toBe(0);
    // The same URL for requests close together.
    expect(renditionExpiry(now + 1000, 3600)).toBe(exp);
  });
});

describe('renditionUrl', () => {
  it('is the API URL of the token', () => {
    const url = renditionUrl(
      { apiPublicUrl: 'https://host.test/api/', secret: SECRET, ttlSeconds: 60 },
      { fileId: grant.fileId, userId: grant.userId, kind: 'preview' },
      Date.now(),
    );
    expect(url).toMatch(/^https:\/\/host\.test\/api\/renditions\/[\w-]+\.[\w-]+$/);
    const token = url.split('/').pop() ?? '';
    expect(readRenditionToken(SECRET, token)).toMatchObject({ kind: 'preview' });
  });
});
