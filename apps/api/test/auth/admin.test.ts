import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminCommandError, runAdminCommand } from '../../src/cli/admin-commands.js';
import { createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('admin command', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('grants and revokes the global scope by e-mail or id', async () => {
    const user = await createUser(server.ctx, { email: 'scope@example.com' });
    expect(await runAdminCommand(server.ctx, ['revoke-scope', 'scope@example.com'])).toContain(
      'scope team',
    );
    let row = await server.ctx.db
      .selectFrom('users')
      .select('scope')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.scope).toBe('team');
    await runAdminCommand(server.ctx, ['grant-scope', user.id]);
    row = await server.ctx.db
      .selectFrom('users')
      .select('scope')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.scope).toBe('global');
  });

  it('explains unknown commands and users', async () => {
    await expect(runAdminCommand(server.ctx, ['nope'])).rejects.toThrow(AdminCommandError);
    await expect(runAdminCommand(server.ctx, ['grant-scope', 'ghost@example.com'])).rejects.toThrow(
      /No user/,
    );
    await expect(runAdminCommand(server.ctx, ['grant-scope'])).rejects.toThrow(/required/);
  });
});
