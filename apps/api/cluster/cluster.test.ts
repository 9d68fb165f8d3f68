import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import type { AppContext } from '../src/context.js';
import { migrations } from '../src/db/migrations/index.js';
import { createContext } from '../src/runtime.js';
import type { UserRow } from '../src/users/users.repository.js';
import { makePng } from '../test/files/images.js';
import { addMember, createUser, TEST_PASSWORD } from '../test/helpers/factories.js';
import { accessToken } from '../test/members/world.js';
import { startCluster, type Cluster, type NodeProcess } from './harness.js';

/**
 * Raccolta as docs/deployment.md runs it: nginx (deploy/nginx/raccolta.conf, round robin) → two
 * API nodes (WORKER=off, UPLOAD_LOCKS=database) → PostgreSQL and an S3 store, and two workers.
 * Each scenario asserts what a user would see.
 */
const UPLOAD_MB = Number(process.env.CLUSTER_UPLOAD_MB ?? 200);
const LOAD_SECONDS = Number(process.env.CLUSTER_LOAD_SECONDS ?? 60);
const LOAD_USERS = 20;
const ARCHIVE_MB = Number(process.env.CLUSTER_ARCHIVE_MB ?? 256);

let cluster: Cluster;
let ctx: AppContext;
let owner: UserRow;
let ownerToken: string;
let teamId: string;
let collectionId: string;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function api(
  origin: string,
  path: string,
  init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: () => unknown }> {
  const send = () =>
    fetch(`${origin}/api${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.token ? bearer(init.token) : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  let res: Response;
  try {
    res = await send();
  } catch (err) {
    // A kept-alive connection nginx closed as it reloaded (its old workers let idle connections
    // go) fails before any answer; a browser sends a GET again on a new connection, once.
    if (!(err instanceof TypeError) || (init.method ?? 'GET') !== 'GET') throw err;
    res = await send();
  }
  const text = await res.text();
  return { status: res.status, json: () => JSON.parse(text) as unknown };
}

/** A GET sent again once when it fails before any answer, as `api` does (nginx's reloads). */
async function fetchAgain(url: string): Promise<Response> {
  try {
    return await fetch(url);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return fetch(url);
  }
}

/** A file through nginx with tus-js-client, retrying as the web and upload apps do. */
function tusUpload(
  data: Buffer,
  token: string,
  name: string,
  options: { chunkSize?: number; onProgress?: (sent: number) => void; collection?: string } = {},
): Promise<{ url: string; retries: number }> {
  let retries = 0;
  return new Promise((resolve, reject) => {
    const upload = new Upload(data, {
      endpoint: `${cluster.origin}/api/teams/${teamId}/collections/${options.collection ?? collectionId}/uploads`,
      headers: bearer(token),
      metadata: { filename: name },
      ...(options.chunkSize ? { chunkSize: options.chunkSize } : {}),
      retryDelays: [0, 500, 1000, 2000, 3000, 5000, 5000, 10_000, 10_000],
      onShouldRetry: () => {
        retries += 1;
        return true;
      },
      onProgress: (sent) => options.onProgress?.(sent),
      onError: reject,
      onSuccess: () => resolve({ url: upload.url ?? '', retries }),
    });
    upload.start();
  });
}

type FileRow = {
  fileId: string;
  name: string;
  size: number;
  sha256: string;
  thumbnailUrl: string | null;
};

async function listAll(token: string): Promise<FileRow[]> {
  const files: FileRow[] = [];
  let lastKey: string | null = null;
  do {
    const after: string = lastKey === null ? '' : `&lastKey=${lastKey}`;
    const res = await api(
      cluster.origin,
      `/teams/${teamId}/collections/${collectionId}/files?limit=20${after}`,
      { token },
    );
    expect(res.status).toBe(200);
    const body = res.json() as { files: FileRow[]; pagination: { lastKey: string | null } };
    files.push(...body.files);
    lastKey = body.pagination.lastKey;
  } while (lastKey !== null);
  return files;
}

/** The "download is ready" e-mails the workers sent to `email` (console transport copies). */
function readyMails(email: string): string[] {
  const found: string[] = [];
  for (const worker of cluster.workers) {
    const dir = path.join(worker.env.DATA_DIR ?? '', 'mail');
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.eml'))) {
      // Quoted-printable soft line breaks joined, so words cut at 76 characters read whole.
      const text = readFileSync(path.join(dir, name), 'utf8').replace(/=\r?\n/g, '');
      if (text.includes(email) && text.includes('Archive of the season')) found.push(name);
    }
  }
  return found;
}

function counter(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const set = match[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => set.includes(`${k}="${v}"`))) {
      total += Number(match[3]);
    }
  }
  return total;
}

beforeAll(async () => {
  cluster = await startCluster();
  console.log(`cluster: nginx ${cluster.origin}, S3 by ${cluster.s3Kind}, files in ${cluster.dir}`);
});

afterAll(async () => {
  // Either is unset when the start failed.
  await (ctx as AppContext | undefined)?.db.destroy();
  await (cluster as Cluster | undefined)?.stop();
});

describe('Raccolta on two nodes behind nginx, PostgreSQL and S3', () => {
  it('starts two API nodes and two workers together on an empty database: migrations run once', async () => {
    const all = [...cluster.apis, ...cluster.workers];
    for (const p of all) p.start();
    await Promise.all(all.map((p) => p.ready()));
    const config = loadConfig({ ...cluster.apis[0].env, LOG_LEVEL: 'silent' });
    ctx = await createContext(config);
    const ran = await ctx.db
      .selectFrom('kysely_migration' as never)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(ran.n)).toBe(Object.keys(migrations).length);
    for (const p of all) expect(p.output).not.toMatch(/"level":(50|60)/);

    owner = await createUser(ctx, { email: `owner-${randomBytes(3).toString('hex')}@example.com` });
    ownerToken = await accessToken(ctx, owner);
    const team = await api(cluster.origin, '/teams', {
      method: 'POST',
      token: ownerToken,
      body: { name: 'Cluster choir', mode: 'collaborative', nickname: 'Owner' },
    });
    expect(team.status).toBe(201);
    teamId = (team.json() as { teamId: string }).teamId;
    const collection = await api(cluster.origin, `/teams/${teamId}/collections`, {
      method: 'POST',
      token: ownerToken,
      body: { name: 'Rehearsals', mode: 'collaborative' },
    });
    expect(collection.status).toBe(201);
    collectionId = (collection.json() as { collectionId: string }).collectionId;
  });

  it('a node dies mid-upload: the upload resumes on the other node and is whole', async () => {
    const data = randomBytes(UPLOAD_MB * 1024 * 1024);
    let killed: NodeProcess | null = null;
    let upload: { url: string; retries: number };
    // Meanwhile a team member keeps looking: the file is never listed but whole.
    const upload$ = { finished: false };
    const expected = sha256(data);
    const listedEarly: number[] = [];
    const watcher = (async () => {
      while (!upload$.finished) {
        const seen = (await listAll(ownerToken)).find((f) => f.name === 'concert.bin');
        if (seen && seen.sha256 !== expected) listedEarly.push(seen.size);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    try {
      upload = await tusUpload(data, ownerToken, 'concert.bin', {
        onProgress: (sent) => {
          if (killed || sent < data.length * 0.4) return;
          // The node with a connection open is the one receiving the PATCH from nginx.
          const receiving = cluster.apis.find((node) => node.connections() > 0);
          if (!receiving) return;
          killed = receiving;
          void receiving.kill();
        },
      });
    } finally {
      upload$.finished = true;
      await watcher;
      // Back to two nodes for what follows.
      const dead = killed as NodeProcess | null;
      if (dead) {
        dead.start();
        await dead.ready();
        // nginx left the dead node out for fail_timeout; a reload takes it back at once.
        await cluster.proxy.setDown([]);
      }
    }
    const { url, retries } = upload;
    expect(listedEarly).toEqual([]);
    expect(killed).not.toBeNull();
    expect(retries).toBeGreaterThan(0);
    const uploadId = url.split('/').pop();
    const files = await listAll(ownerToken);
    const file = files.find((f) => f.name === 'concert.bin');
    expect(file).toMatchObject({ size: data.length, sha256: sha256(data) });
    // The bytes a user downloads are the bytes sent.
    const link = await api(
      cluster.origin,
      `/teams/${teamId}/collections/${collectionId}/files/${file?.fileId}/download`,
      { token: ownerToken },
    );
    expect(link.status).toBe(200);
    const got = Buffer.from(
      await (await fetch((link.json() as { url: string }).url)).arrayBuffer(),
    );
    expect(sha256(got)).toBe(sha256(data));
    expect(uploadId).toBeTruthy();
  });

  it('revocation is immediate everywhere: sign-out and a disabled member on A, refused on B', async () => {
    const [a, b] = cluster.apis;
    const user = await createUser(ctx, {
      email: `leaver-${randomBytes(3).toString('hex')}@example.com`,
    });
    await addMember(ctx, { teamId, user, role: 'admin', nickname: user.email ?? user.id });
    const first = await accessToken(ctx, user);
    expect((await api(b.origin, '/users/@me', { token: first })).status).toBe(200);
    const out = await api(a.origin, '/auth/signout', {
      method: 'POST',
      token: first,
      body: { accessToken: first },
    });
    expect(out.status).toBeLessThan(300);
    expect((await api(b.origin, '/users/@me', { token: first })).status).toBe(401);

    const member = await createUser(ctx, {
      email: `member-${randomBytes(3).toString('hex')}@example.com`,
    });
    await addMember(ctx, { teamId, user: member, role: 'admin', nickname: 'Member' });
    const memberToken = await accessToken(ctx, member);
    const files = `/teams/${teamId}/collections/${collectionId}/files`;
    expect((await api(b.origin, files, { token: memberToken })).status).toBe(200);
    const disabled = await api(a.origin, `/teams/${teamId}/members/${member.id}`, {
      method: 'PATCH',
      token: ownerToken,
      body: [{ op: 'replace', path: '/status', value: 'disabled' }],
    });
    expect(disabled.status).toBe(200);
    expect([403, 404]).toContain((await api(b.origin, files, { token: memberToken })).status);
  });

  it('limits are shared: the sign-in lockout and the per-address limits count across both nodes', async () => {
    const email = `locked-${randomBytes(3).toString('hex')}@example.com`;
    await createUser(ctx, { email });
    const [a, b] = cluster.apis;
    // Five wrong passwords, alternating nodes: the account is locked as on one node.
    for (let i = 0; i < 5; i++) {
      const res = await api(i % 2 ? b.origin : a.origin, '/auth/signin', {
        method: 'POST',
        body: { email, password: 'Wrong-pass-1' },
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
      });
      expect(res.status).toBe(401);
    }
    const locked = await api(b.origin, '/auth/signin', {
      method: 'POST',
      body: { email, password: TEST_PASSWORD },
      headers: { 'x-forwarded-for': '198.51.100.99' },
    });
    expect(locked.status).toBe(429);

    // The auth routes' 20 requests a minute per address, through nginx's round robin.
    const address = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
    const logBefore = cluster.accessLog().length;
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await api(cluster.origin, '/auth/signin', {
        method: 'POST',
        body: { email: `nobody-${i}@example.com`, password: 'Wrong-pass-1' },
        headers: { 'x-forwarded-for': address },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    const upstreams = new Set(
      cluster
        .accessLog()
        .slice(logBefore)
        .map((line) => line.split(' ')[3]),
    );
    expect(upstreams.size).toBe(2);
  });

  it('a rolling restart under load: no user operation fails', async () => {
    const users = await Promise.all(
      Array.from({ length: LOAD_USERS }, async (_, i) => {
        const user = await createUser(ctx, {
          email: `load-${i}-${randomBytes(3).toString('hex')}@example.com`,
        });
        await addMember(ctx, { teamId, user, role: 'admin', nickname: user.email ?? user.id });
        return accessToken(ctx, user);
      }),
    );
    // Photos whose thumbnails the workers make, for the users to browse.
    for (let i = 0; i < 3; i++) {
      await tusUpload(await makePng(320 + i * 40, 240), ownerToken, `photo-${i}.png`);
    }
    const deadline = Date.now() + 60_000;
    while ((await listAll(ownerToken)).filter((f) => f.thumbnailUrl).length < 3) {
      if (Date.now() > deadline) throw new Error('the workers made no thumbnails within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const known = (await listAll(ownerToken)).find((f) => f.name === 'photo-0.png');
    expect(known).toBeDefined();
    const logBefore = cluster.accessLog().length;
    const failures: string[] = [];
    const uploaded: { name: string; hash: string; size: number }[] = [];
    const counts = { uploads: 0, lists: 0, downloads: 0, thumbnails: 0 };
    // Names of their own, should this test run again (CI retries a failed test once).
    const run = randomBytes(3).toString('hex');
    const started = Date.now();
    const until = started + LOAD_SECONDS * 1000;

    const user = async (token: string, index: number) => {
      for (let round = 0; Date.now() < until; round++) {
        const kind = (index + round) % 4;
        try {
          if (kind === 0) {
            const data = randomBytes(256 * 1024 + Math.floor(Math.random() * 2 * 1024 * 1024));
            const name = `load-${run}-${index}-${round}.bin`;
            await tusUpload(data, token, name, { chunkSize: 512 * 1024 });
            uploaded.push({ name, hash: sha256(data), size: data.length });
            counts.uploads += 1;
          } else if (kind === 1 || kind === 3) {
            const res = await api(
              cluster.origin,
              `/teams/${teamId}/collections/${collectionId}/files?limit=20`,
              { token },
            );
            if (res.status !== 200) throw new Error(`list ${res.status}`);
            const body = res.json() as { files: FileRow[]; pagination: { lastKey: string | null } };
            if (!Array.isArray(body.files) || body.files.length === 0)
              throw new Error('list empty');
            counts.lists += 1;
            const thumb = body.files.find((f) => f.thumbnailUrl)?.thumbnailUrl;
            if (thumb) {
              const got = await fetchAgain(
                thumb.startsWith('http') ? thumb : `${cluster.origin}${thumb}`,
              );
              if (got.status !== 200) throw new Error(`thumbnail ${got.status}`);
              await got.arrayBuffer();
              counts.thumbnails += 1;
            }
          } else {
            const link = await api(
              cluster.origin,
              `/teams/${teamId}/collections/${collectionId}/files/${known?.fileId}/download`,
              { token },
            );
            if (link.status !== 200) throw new Error(`download link ${link.status}`);
            const got = await fetchAgain((link.json() as { url: string }).url);
            if (got.status !== 200) throw new Error(`download ${got.status}`);
            const bytes = Buffer.from(await got.arrayBuffer());
            if (sha256(bytes) !== known?.sha256) throw new Error('download differs');
            counts.downloads += 1;
          }
        } catch (err) {
          failures.push(`${index}/${round}: ${String(err)}`);
        }
      }
    };

    // As docs/deployment.md says to roll a restart: take the node out of nginx's upstream (down,
    // reload), SIGTERM it (it finishes what it has in flight), start it, wait until it is ready,
    // put it back; then the next.
    const restarts = (async () => {
      for (const [at, node] of [
        [0.25, cluster.apis[0]],
        [0.6, cluster.apis[1]],
      ] as const) {
        const wait = started + at * LOAD_SECONDS * 1000 - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        await cluster.proxy.setDown([node.port ?? 0]);
        const code = await node.stop();
        expect(code).toBe(0);
        node.start();
        await node.ready();
        await cluster.proxy.setDown([]);
      }
    })();
    await Promise.all([...users.map((token, i) => user(token, i)), restarts]);

    expect(failures).toEqual([]);
    const status5xx = cluster
      .accessLog()
      .slice(logBefore)
      .filter((line) => line.startsWith('5'));
    expect(status5xx).toEqual([]);
    const stored = new Map((await listAll(ownerToken)).map((f) => [f.name, f]));
    for (const u of uploaded)
      expect(stored.get(u.name)).toMatchObject({ sha256: u.hash, size: u.size });
    expect(counts.uploads).toBeGreaterThan(LOAD_USERS);
    expect(counts.lists).toBeGreaterThan(LOAD_USERS);
    expect(counts.downloads).toBeGreaterThan(LOAD_USERS / 2);
    expect(counts.thumbnails).toBeGreaterThan(LOAD_USERS / 2);
    console.log(
      `load: ${LOAD_SECONDS} s, ${LOAD_USERS} users: ${counts.uploads} uploads (${(counts.uploads / LOAD_SECONDS).toFixed(1)}/s), ${counts.lists} list pages (${(counts.lists / LOAD_SECONDS).toFixed(1)}/s), ${counts.downloads} downloads, ${counts.thumbnails} thumbnails, two restarts`,
    );
  });

  it('a worker dies mid-archive: the other takes the job over; every part opens; one e-mail', async () => {
    // A collection of its own, of ARCHIVE_MB in 32 MB files (random bytes: stored, not deflated),
    // two to a part (DOWNLOAD_PART_MAX_BYTES in harness.ts).
    const made = await api(cluster.origin, `/teams/${teamId}/collections`, {
      method: 'POST',
      token: ownerToken,
      body: { name: 'Archive of the season', mode: 'collaborative' },
    });
    expect(made.status).toBe(201);
    const archiveCollection = (made.json() as { collectionId: string }).collectionId;
    const fileMb = 32;
    const hashes = new Map<string, string>();
    for (let i = 0; i < Math.ceil(ARCHIVE_MB / fileMb); i++) {
      const data = randomBytes(fileMb * 1024 * 1024);
      const name = `take-${String(i).padStart(2, '0')}.bin`;
      await tusUpload(data, ownerToken, name, { collection: archiveCollection });
      // Entries sit in a folder named after the collection.
      hashes.set(`Archive of the season/${name}`, sha256(data));
    }
    const mailBefore = readyMails(owner.email ?? '').length;

    const requested = await api(cluster.origin, `/teams/${teamId}/downloads`, {
      method: 'POST',
      token: ownerToken,
      body: { collectionId: archiveCollection },
    });
    expect(requested.status).toBe(202);
    const downloadId = (requested.json() as { requestId: string }).requestId;
    const status = async () =>
      (
        await api(cluster.origin, `/teams/${teamId}/downloads/${downloadId}`, { token: ownerToken })
      ).json() as {
        status: string;
        readyParts: number;
        totalParts: number | null;
        parts: { partId: number; status: string }[];
      };

    // The worker holding the build job, found by its claim (`host:pid:…`), dies once a part is in.
    let killed: NodeProcess | undefined;
    const deadline = Date.now() + 240_000;
    while (!killed) {
      if (Date.now() > deadline) throw new Error('no worker built the download');
      const job = await ctx.db
        .selectFrom('jobs')
        .select(['locked_by', 'status'])
        .where('queue', '=', 'downloads.build')
        .where('status', '=', 'running')
        .executeTakeFirst();
      const pid = Number(job?.locked_by?.split(':')[1]);
      const holder = cluster.workers.find((w) => w.pid === pid);
      if (holder && (await status()).readyParts >= 1) {
        killed = holder;
        await holder.kill();
      } else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    try {
      let ready = await status();
      while (ready.status !== 'ready') {
        if (Date.now() > deadline + 240_000) throw new Error(`download still ${ready.status}`);
        expect(ready.status).not.toBe('failed');
        await new Promise((resolve) => setTimeout(resolve, 500));
        ready = await status();
      }
      expect(ready.totalParts).toBeGreaterThan(1);
      // Every part is a zip that opens on its own; together they hold every file, whole.
      const seen = new Map<string, string>();
      for (const part of ready.parts) {
        const link = await api(
          cluster.origin,
          `/teams/${teamId}/downloads/${downloadId}/parts/${part.partId}/download`,
          { token: ownerToken },
        );
        expect(link.status).toBe(200);
        const zip = Buffer.from(
          await (await fetch((link.json() as { url: string }).url)).arrayBuffer(),
        );
        const file = path.join(cluster.dir, `part-${part.partId}.zip`);
        writeFileSync(file, zip);
        const tested = spawnSync('unzip', ['-tq', file], { encoding: 'utf8' });
        expect(tested.status, tested.stdout + tested.stderr).toBe(0);
        const listing = spawnSync('unzip', ['-Z1', file], { encoding: 'utf8' })
          .stdout.trim()
          .split('\n');
        for (const entry of listing) {
          const bytes = spawnSync('unzip', ['-p', file, entry], {
            maxBuffer: 256 * 1024 * 1024,
          }).stdout;
          seen.set(entry, sha256(bytes));
        }
        rmSync(file);
      }
      expect(Object.fromEntries(seen)).toEqual(Object.fromEntries(hashes));
      // The requester hears of it once, whichever worker finished it.
      const deadlineMail = Date.now() + 30_000;
      while (readyMails(owner.email ?? '').length === mailBefore && Date.now() < deadlineMail) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(readyMails(owner.email ?? '').length - mailBefore).toBe(1);
    } finally {
      killed.start();
      await killed.ready();
    }
  });

  it('metrics are scraped from every process and moved', async () => {
    for (const node of cluster.apis) {
      const text = await node.metrics();
      expect(counter(text, 'raccolta_http_request_duration_seconds_count')).toBeGreaterThan(0);
      // By route template, never by the requested path (no id in a label).
      expect(text).toMatch(/route="\/api\/teams\/:teamId\//);
      expect(text).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}-/);
    }
    const runs = await Promise.all(
      cluster.workers.map(async (w) => counter(await w.metrics(), 'raccolta_jobs_run_total')),
    );
    expect(runs.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(0);
  });
});
