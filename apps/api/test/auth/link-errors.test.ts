import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * A broken e-mailed link (a parameter missing, cut short or garbled) answers that link's own
 * error code (spec §8), which the web app shows as "this link is not valid", not the generic
 * invalidInput of a form; nothing is written.
 */
describe('broken links answer their own error codes', () => {
  let server: TestServer;
  let teamId: string;

  beforeAll(async () => {
    server = await startTestServer();
    const owner = await createUser(server.ctx, { email: 'links-owner@example.com' });
    teamId = (await createTeam(server.ctx, { owner, name: 'Links' })).id;
  });
  afterAll(() => server.close());

  const post = (url: string, payload: object) =>
    server.app.inject({ method: 'POST', url: `/api${url}`, payload });

  it.each([
    ['/auth/reset-password', { email: 'a@example.com', newPassword: 'Sup3r-secret1' }],
    [
      '/auth/reset-password',
      { email: 'not-an-address', code: 'abc', newPassword: 'Sup3r-secret1' },
    ],
    ['/auth/reset-password', { email: 'a@example.com', code: '', newPassword: 'weak' }],
  ])('reset-password %s %j → invalidResetLink', async (url, payload) => {
    expect((await post(url, payload)).json()).toMatchObject({
      statusCode: 400,
      errorCode: 'invalidResetLink',
    });
  });

  it.each([
    [{ email: 'a@example.com', code: 'abc' }],
    [{ email: 'a@example.com', username: 'a', code: '' }],
    [{ email: 'a@@example.com', username: 'a', code: 'abc' }],
  ])('verify-email %j → invalidVerification', async (payload) => {
    expect((await post('/auth/verify-email', payload)).json()).toMatchObject({
      statusCode: 400,
      errorCode: 'invalidVerification',
    });
  });

  it('accept and reject without a token → invalidAcceptToken, invalidRejectToken', async () => {
    const before = await server.ctx.db
      .selectFrom('team_members')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect((await post(`/teams/${teamId}/invitations/accept`, {})).json()).toMatchObject({
      statusCode: 400,
      errorCode: 'invalidAcceptToken',
    });
    expect(
      (await post(`/teams/${teamId}/invitations/accept`, { token: '', password: 'x' })).json(),
    ).toMatchObject({ statusCode: 400, errorCode: 'invalidAcceptToken' });
    expect((await post(`/teams/${teamId}/invitations/reject`, { token: '' })).json()).toMatchObject(
      { statusCode: 400, errorCode: 'invalidRejectToken' },
    );
    const after = await server.ctx.db
      .selectFrom('team_members')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toEqual(before.n);
  });

  it('a valid link with a weak new password is still a form error, not a link error', async () => {
    const res = await post('/auth/reset-password', {
      email: 'a@example.com',
      code: 'abc',
      newPassword: 'weak',
    });
    expect(res.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidPassword' });
  });
});
