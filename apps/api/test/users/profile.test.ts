import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateProfile } from '../../src/users/users.service.js';
import { findUserById } from '../../src/users/users.repository.js';
import { createUser } from '../helpers/factories.js';
import { accessToken } from '../members/world.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('PUT /users/@me', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('saves the names and answers the user as stored', async () => {
    const user = await createUser(server.ctx, { email: 'profile-names@example.com' });
    const res = await server.app.inject({
      method: 'PUT',
      url: '/api/users/@me',
      headers: { authorization: `Bearer ${await accessToken(server.ctx, user)}` },
      payload: { firstName: 'Anna', lastName: 'Rossi', nickname: 'Annie' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ firstName: 'Anna', lastName: 'Rossi', nickname: 'Annie' });
    const stored = await findUserById(server.ctx.db, user.id);
    expect(stored).toMatchObject({ first_name: 'Anna', last_name: 'Rossi', nickname: 'Annie' });
  });

  it('answers 401 invalidAuthorization, not a server error, when the account is gone', async () => {
    const user = await createUser(server.ctx, { email: 'profile-gone@example.com' });
    await server.ctx.db.deleteFrom('users').where('id', '=', user.id).execute();
    await expect(
      updateProfile(server.ctx, user, { firstName: 'A', lastName: 'B', nickname: 'C' }),
    ).rejects.toMatchObject({ errorCode: 'invalidAuthorization' });
    expect(await findUserById(server.ctx.db, user.id)).toBeUndefined();
  });
});
