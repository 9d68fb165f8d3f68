import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import { exited, freePort } from '../test/helpers/api-process.js';
import { startTestS3 } from '../test/helpers/s3.js';

export const repoRoot = path.resolve(import.meta.dirname, '../../..');
const NGINX_CONF = path.join(repoRoot, 'deploy/nginx/raccolta.conf');

/** A GET on a connection of its own, closed after the answer: none lingers on a node's port. */
export function get(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
  });
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One process of the cluster, started from the build as its systemd unit starts it. */
export class NodeProcess {
  child: ChildProcess | null = null;
  output = '';
  exitCode: number | null = null;

  constructor(
    readonly name: string,
    readonly script: string,
    readonly env: Record<string, string>,
    readonly port: number | null,
    readonly metricsPort: number,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port ?? 0}`;
  }

  start(): void {
    this.exitCode = null;
    const child = spawn(process.execPath, ['--enable-source-maps', this.script], {
      cwd: repoRoot,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (this.output += d.toString()));
    child.on('exit', (code) => (this.exitCode = code));
    this.child = child;
  }

  /** Until its readiness probe (API) or its metrics port (worker) answers 200. */
  async ready(): Promise<void> {
    const url =
      this.port === null
        ? `http://127.0.0.1:${this.metricsPort}/metrics`
        : `${this.origin}/api/health/ready`;
    let last = '';
    await waitFor(`${this.name} ready`, async () => {
      if (this.exitCode !== null) throw new Error(`${this.name} exited:\n${this.output}`);
      const res = await get(url);
      last = `${res.status} ${res.text}`;
      return res.status === 200;
    }).catch((err: unknown) => {
      throw new Error(`${String(err)}; last answer: ${last.slice(0, 300)}\n${this.output}`);
    });
  }

  /** Connections open on its port right now (Linux: /proc/net/tcp), e.g. nginx's PATCH. */
  connections(): number {
    if (this.port === null) return 0;
    const hexPort = this.port.toString(16).toUpperCase().padStart(4, '0');
    let open = 0;
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      if (!existsSync(table)) continue;
      for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const [, local, , state] = line.trim().split(/\s+/);
        // 01: ESTABLISHED, on the node's side of the connection.
        if (local?.endsWith(`:${hexPort}`) && state === '01') open += 1;
      }
    }
    return open;
  }

  async metrics(): Promise<string> {
    return (await get(`http://127.0.0.1:${this.metricsPort}/metrics`)).text;
  }

  /** SIGKILL: the machine or container died; no handler runs. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill('SIGKILL');
    await exited(child);
  }

  /** SIGTERM, as systemd stops it, and the exit code. */
  async stop(): Promise<number | null> {
    const child = this.child;
    if (!child) return null;
    child.kill('SIGTERM');
    await exited(child);
    return child.exitCode;
  }
}

export interface Cluster {
  dir: string;
  databaseUrl: string;
  /** What ran as the S3 store: moto (the machine's Python) or s3rver (npm). */
  s3Kind: 'moto' | 's3rver';
  s3Env: Record<string, string>;
  /** nginx's address, the only one users reach. */
  origin: string;
  apis: [NodeProcess, NodeProcess];
  workers: [NodeProcess, NodeProcess];
  /** Lines of nginx's access log: `status method uri upstream request_id`. */
  accessLog(): string[];
  proxy: Nginx;
  stop(): Promise<void>;
}

function nginxBinary(): string | null {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx']) {
    if (existsSync(candidate)) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}

function motoAvailable(): boolean {
  return spawnSync('python3', ['-c', 'import moto.server'], { stdio: 'ignore' }).status === 0;
}

/** An independent S3: moto's server where the machine's Python has it, else s3rver. */
async function startS3() {
  if (motoAvailable()) {
    const port = await freePort();
    const child = spawn('python3', ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const endpoint = `http://127.0.0.1:${port}`;
    await waitFor(`moto on ${endpoint}`, async () => {
      if (child.exitCode !== null) throw new Error(`moto exited:\n${output}`);
      return (await fetch(`${endpoint}/moto-api/`)).ok;
    });
    const env = {
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'cluster',
      S3_SECRET_ACCESS_KEY: 'cluster-secret',
      S3_FORCE_PATH_STYLE: 'true',
      S3_BUCKET: 'raccolta-cluster',
    };
    const client = new S3Client({
      endpoint,
      region: env.S3_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
    });
    await client.send(new CreateBucketCommand({ Bucket: env.S3_BUCKET }));
    client.destroy();
    return {
      kind: 'moto' as const,
      env,
      stop: async () => {
        child.kill('SIGTERM');
        await exited(child);
      },
    };
  }
  const s3 = await startTestS3();
  return { kind: 's3rver' as const, env: { ...s3.env }, stop: () => s3.close() };
}

/**
 * The repository's nginx file with this run's nodes and port (and, for DOWNLOAD_OFFLOAD, the
 * folder of the local files); nothing else changed.
 */
function nginxConfig(
  listen: number,
  nodes: number[],
  filesRoot?: string,
  down: number[] = [],
): string {
  const conf = readFileSync(NGINX_CONF, 'utf8');
  const params = / {4}server 127\.0\.0\.1:\d+([^;]*);/.exec(conf)?.[1] ?? '';
  const servers = nodes
    .map((port) => `    server 127.0.0.1:${port}${params}${down.includes(port) ? ' down' : ''};`)
    .join('\n');
  const filled = conf
    .replace(
      /(upstream raccolta_api \{\n(?:\s*#.*\n)*)(?: {4}server 127\.0\.0\.1:\d+[^;]*;\n)+/,
      `$1${servers}\n`,
    )
    .replace(/listen 80;/, `listen 127.0.0.1:${listen};`)
    .replace(/alias \/var\/lib\/raccolta\/files\/;/, `alias ${filesRoot ?? '/nonexistent'}/;`);
  if (!filled.includes(servers) || !filled.includes(`listen 127.0.0.1:${listen};`)) {
    throw new Error('deploy/nginx/raccolta.conf no longer has the upstream and listen lines');
  }
  return filled;
}

export async function startCluster(): Promise<Cluster> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('the cluster test needs TEST_DATABASE_URL (PostgreSQL)');
  const nginx = nginxBinary();
  if (!nginx) throw new Error('the cluster test needs nginx (apt-get install -y nginx)');

  // The processes run from the build, as their systemd units do.
  const build = spawnSync(process.execPath, ['scripts/build-if-needed.mjs'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the build failed');

  const dir = path.join(repoRoot, 'test-results', `cluster-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  const name = `raccolta_cluster_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${name}`;
  const databaseUrl = dbUrl.toString();
  const s3 = await startS3();

  const listen = await freePort();
  const origin = `http://127.0.0.1:${listen}`;
  const shared = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    DATABASE_URL: databaseUrl,
    STORAGE: 's3',
    ...s3.env,
    APP_SECRET: randomBytes(32).toString('hex'),
    STORAGE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    WORKER: 'off',
    UPLOAD_LOCKS: 'database',
    TRUST_PROXY: 'true',
    SHUTDOWN_GRACE_SECONDS: '10',
    RATE_LIMIT_MAX: '100000',
    LOG_LEVEL: 'warn',
    JOB_POLL_MS: '200',
    JOB_LEASE_MS: '5000',
    // A collection download of a few hundred MB comes in several parts: 80 MiB holds two of
    // cluster.test.ts's 32 MB files.
    DOWNLOAD_PART_MAX_BYTES: String(80 * 1024 * 1024),
  };
  const node = async (label: string, script: string, api: boolean) => {
    const port = api ? await freePort() : null;
    const metricsPort = await freePort();
    return new NodeProcess(
      label,
      script,
      {
        ...shared,
        ...(port === null ? {} : { PORT: String(port) }),
        DATA_DIR: path.join(dir, label),
        METRICS_PORT: String(metricsPort),
      },
      port,
      metricsPort,
    );
  };
  const apiScript = path.join(repoRoot, 'apps/api/dist/main.js');
  const workerScript = path.join(repoRoot, 'apps/api/dist/cli/worker.js');
  const apis: [NodeProcess, NodeProcess] = [
    await node('api-a', apiScript, true),
    await node('api-b', apiScript, true),
  ];
  const workers: [NodeProcess, NodeProcess] = [
    await node('worker-1', workerScript, false),
    await node('worker-2', workerScript, false),
  ];

  const proxy = await startNginx(
    path.join(dir, 'nginx'),
    listen,
    apis.map((api) => api.port ?? 0),
  );

  const cluster: Cluster = {
    dir,
    databaseUrl,
    s3Kind: s3.kind,
    s3Env: s3.env,
    origin,
    apis,
    workers,
    accessLog: () => proxy.accessLog(),
    proxy,
    async stop() {
      for (const p of [...apis, ...workers]) await p.stop().catch(() => undefined);
      await proxy.stop();
      await s3.stop();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
  return cluster;
}

export interface Nginx {
  /** Lines of the access log: `status method uri upstream request_id`. */
  accessLog(): string[];
  /**
   * Marks these nodes `down` in the upstream (none: every node up) and reloads nginx, as an
   * operator takes a node out before restarting it; resolves once nginx sends requests only to
   * the nodes up.
   */
  setDown(ports: number[]): Promise<void>;
  stop(): Promise<void>;
}

/** nginx from Debian with the repository's file, in a folder of its own, until `stop()`. */
export async function startNginx(
  dir: string,
  listen: number,
  nodes: number[],
  filesRoot?: string,
  /** More of nginx's http block (a benchmark's baseline server). */
  extra: string[] = [],
): Promise<Nginx> {
  const nginx = nginxBinary();
  if (!nginx) throw new Error('nginx is missing (apt-get install -y nginx)');
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    mkdirSync(path.join(dir, 'tmp', sub), { recursive: true });
  }
  writeFileSync(path.join(dir, 'raccolta.conf'), nginxConfig(listen, nodes, filesRoot));
  const asRoot = process.getuid?.() === 0;
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      ...(asRoot ? ['user root;'] : []),
      'worker_processes 1;',
      'daemon off;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 1024; }',
      'http {',
      "  log_format cluster '$status $request_method $uri $upstream_addr $request_id';",
      `  access_log ${dir}/access.log cluster;`,
      ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (sub) => `  ${sub === 'body' ? 'client_body' : sub}_temp_path ${dir}/tmp/${sub};`,
      ),
      `  include ${dir}/raccolta.conf;`,
      ...extra.map((line) => `  ${line}`),
      '}',
      '',
    ].join('\n'),
  );
  const proxy = spawn(nginx, ['-c', path.join(dir, 'nginx.conf'), '-p', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proxy.stderr.on('data', (d: Buffer) => (output += d.toString()));
  // Its port open; no request goes through yet, which would mark the nodes down for a while.
  await waitFor('nginx', async () => {
    if (proxy.exitCode !== null) throw new Error(`nginx exited:\n${output}`);
    return new Promise<boolean>((resolve) => {
      const socket = connect(listen, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
  });
  const accessLog = () => {
    const file = path.join(dir, 'access.log');
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  };
  return {
    accessLog,
    async setDown(ports) {
      writeFileSync(path.join(dir, 'raccolta.conf'), nginxConfig(listen, nodes, filesRoot, ports));
      proxy.kill('SIGHUP');
      // Until a round of probes through nginx reaches exactly the nodes up.
      const up = nodes.filter((port) => !ports.includes(port)).map((port) => `127.0.0.1:${port}`);
      await waitFor('nginx reloaded', async () => {
        const before = accessLog().length;
        for (let i = 0; i < up.length * 3; i++)
          await get(`http://127.0.0.1:${listen}/api/health/live`);
        const reached = new Set(
          accessLog()
            .slice(before)
            .map((line) => line.split(' ')[3]),
        );
        return reached.size === up.length && up.every((node) => reached.has(node));
      });
    },
    async stop() {
      proxy.kill('SIGQUIT');
      await exited(proxy);
    },
  };
}
