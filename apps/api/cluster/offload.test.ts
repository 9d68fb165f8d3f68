import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import type { AppContext } from '../src/context.js';
import { createContext } from '../src/runtime.js';
import { createUser } from '../test/helpers/factories.js';
import { freePort } from '../test/helpers/api-process.js';
import { accessToken } from '../test/members/world.js';
import { NodeProcess, repoRoot, startNginx, type Nginx } from './harness.js';

/**
 * DOWNLOAD_OFFLOAD=nginx on one machine (local disk): the node checks a signed link and answers
 * X-Accel-Redirect; nginx, with the repository's file, sends the bytes from DATA_DIR/files.
 */
let node: NodeProcess;
let proxy: Nginx;
let ctx: AppContext;
let origin: string;
const data = randomBytes(5 * 1024 * 1024 + 123);
let link: string;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  const dir = path.join(repoRoot, 'test-results', `offload-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  const listen = await freePort();
  origin = `http://127.0.0.1:${listen}`;
  const port = await freePort();
  const dataDir = path.join(dir, 'data');
  node = new NodeProcess(
    'api',
    path.join(repoRoot, 'apps/api/dist/main.js'),
    {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: origin,
      DATA_DIR: dataDir,
      APP_SECRET: randomBytes(32).toString('hex'),
      TRUST_PROXY: 'true',
      DOWNLOAD_OFFLOAD: 'nginx',
      LOG_LEVEL: 'warn',
      METRICS_PORT: String(await freePort()),
    },
    port,
    0,
  );
  node.start();
  await node.ready();
  proxy = await startNginx(path.join(dir, 'nginx'), listen, [port], path.join(dataDir, 'files'));
  ctx = await createContext(loadConfig({ ...node.env, LOG_LEVEL: 'silent' }));

  const owner = await createUser(ctx, { email: 'offload@example.com' });
  const token = await accessToken(ctx, owner);
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const team = await fetch(`${origin}/api/teams`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: 'Offload', mode: 'collaborative', nickname: 'Owner' }),
  });
  const { teamId } = (await team.json()) as { teamId: string };
  const made = await fetch(`${origin}/api/teams/${teamId}/collections`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: 'Scans', mode: 'collaborative' }),
  });
  const { collectionId } = (await made.json()) as { collectionId: string };
  await new Promise<void>((resolve, reject) => {
    const upload = new Upload(data, {
      endpoint: `${origin}/api/teams/${teamId}/collections/${collectionId}/uploads`,
      headers: { authorization: `Bearer ${token}` },
      metadata: { filename: 'scan <1>.bin' },
      onError: reject,
      onSuccess: () => resolve(),
    });
    upload.start();
  });
  const list = (await (
    await fetch(`${origin}/api/teams/${teamId}/collections/${collectionId}/files`, {
      headers: auth,
    })
  ).json()) as { files: { fileId: string }[] };
  const fileId = list.files[0]?.fileId ?? '';
  const answer = await fetch(
    `${origin}/api/teams/${teamId}/collections/${collectionId}/files/${fileId}/download`,
    { headers: auth },
  );
  link = ((await answer.json()) as { url: string }).url;
});

afterAll(async () => {
  await (ctx as AppContext | undefined)?.db.destroy();
  await (proxy as Nginx | undefined)?.stop();
  await (node as NodeProcess | undefined)?.stop();
});

describe('DOWNLOAD_OFFLOAD=nginx', () => {
  it('nginx sends the file the node allowed, with the same headers', async () => {
    expect(link.startsWith(`${origin}/api/`)).toBe(true);
    const res = await fetch(link);
    expect(res.status).toBe(200);
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(data));
    expect(res.headers.get('content-length')).toBe(String(data.length));
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
    expect(res.headers.get('x-accel-redirect')).toBeNull();

    const part = await fetch(link, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${data.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(data.subarray(100, 200));
  });

  it('the node itself sends no bytes, and nginx serves nothing the node did not allow', async () => {
    const direct = await fetch(link.replace(origin, node.origin));
    expect(direct.headers.get('x-accel-redirect')).toMatch(/^\/_raccolta_files\//);
    expect((await direct.arrayBuffer()).byteLength).toBe(0);

    const key = (direct.headers.get('x-accel-redirect') ?? '').replace('/_raccolta_files/', '');
    expect((await fetch(`${origin}/_raccolta_files/${key}`)).status).toBe(404);
    const tampered = await fetch(`${link.slice(0, -4)}AAAA`);
    expect([400, 410]).toContain(tampered.status);
    expect((await tampered.arrayBuffer()).byteLength).toBeLessThan(1024);
  });
});
