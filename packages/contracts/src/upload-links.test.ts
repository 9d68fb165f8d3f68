import { describe, expect, it } from 'vitest';
import { fileListQuerySchema } from './files.js';
import {
  createUploadLinkSchema,
  openUploadLinkSchema,
  updateUploadLinkSchema,
  UPLOAD_LINK_TOKEN_PATTERN,
} from './upload-links.js';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('upload link schemas', () => {
  it('defaults a new link to asking for a name and not an e-mail', () => {
    expect(createUploadLinkSchema.parse({})).toEqual({ requireName: true, requireEmail: false });
  });

  it('takes media types and families, lower-cased, and refuses anything else', () => {
    expect(
      createUploadLinkSchema.parse({ acceptedTypes: ['IMAGE/*', 'application/pdf'] }).acceptedTypes,
    ).toEqual(['image/*', 'application/pdf']);
    for (const bad of [[], ['image'], ['*/png'], ['image/*', 'image/*'], ['text/plain; x=1']]) {
      expect(
        firstMessage(createUploadLinkSchema.safeParse({ acceptedTypes: bad })),
        String(bad),
      ).toBe('invalidInput');
    }
  });

  it('refuses caps that are not positive integers and short passwords', () => {
    for (const maxFiles of [0, -1, 1.5, '3']) {
      expect(createUploadLinkSchema.safeParse({ maxFiles }).success, String(maxFiles)).toBe(false);
    }
    expect(firstMessage(createUploadLinkSchema.safeParse({ password: 'abc' }))).toBe(
      'passwordShort',
    );
  });

  it('patches with null to clear, refuses empty and unknown fields', () => {
    expect(updateUploadLinkSchema.parse({ password: null, enabled: false })).toEqual({
      password: null,
      enabled: false,
    });
    expect(updateUploadLinkSchema.safeParse({}).success).toBe(false);
    expect(updateUploadLinkSchema.safeParse({ fileCount: 3 }).success).toBe(false);
  });

  it('knows a token by its shape only', () => {
    for (const token of ['', 'short', 'a'.repeat(101), 'has spaces in it!!!!']) {
      expect(UPLOAD_LINK_TOKEN_PATTERN.test(token), token).toBe(false);
    }
    expect(UPLOAD_LINK_TOKEN_PATTERN.test('A'.repeat(43))).toBe(true);
  });

  it('opens with an optional password and guest id only', () => {
    expect(openUploadLinkSchema.parse({ guestId: '01940000-0000-7000-8000-000000000000' })).toEqual(
      {
        guestId: '01940000-0000-7000-8000-000000000000',
      },
    );
    expect(openUploadLinkSchema.safeParse({ guestId: 'nope' }).success).toBe(false);
  });

  it("filters file lists by an upload link's id and a guest's exact name", () => {
    const link = '0195f0c2-7c1a-7000-8000-0000000000aa';
    expect(fileListQuerySchema.parse({ link, guest: ' Anna ' })).toMatchObject({
      link,
      guest: 'Anna',
    });
    expect(firstMessage(fileListQuerySchema.safeParse({ link: 'door' }))).toBe('invalidInput');
    expect(firstMessage(fileListQuerySchema.safeParse({ guest: '  ' }))).toBe('invalidInput');
    expect(firstMessage(fileListQuerySchema.safeParse({ guest: 'a'.repeat(81) }))).toBe(
      'invalidInput',
    );
  });
});
