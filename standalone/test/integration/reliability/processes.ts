/**
 * The distributed topology as real processes: an embedded Postgres process
 * (or the server in DATABASE_URL), then collections-service, catalog-service
 * and the gateway each as `node <pkg>/dist/main.js`, with known secrets so
 * tests can look for them in the logs. Every line a process writes is kept.
 * Each process can be killed and started again on the same port and env.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase, freePort, testPrincipalKeys } from '@skills/common/testing';
import { Client } from '../e2e/helpers';

const ROOT = resolve(__dirname, '..', '..', '..', '..');
export const ADMIN_TOKEN = `adm_${'t3st-admin-token-'.repeat(3)}`;
/** The gateway's key pair in these topologies (the services get the public half only). */
export const PRINCIPAL_KEYS = testPrincipalKeys();
export const ITEMS_READER_TOKEN = `rdr_${'items-reader-token-'.repeat(3)}`;

/** What each kind of process is given to trust the others: the gateway a signing key, the services public keys and the reader token. */
export interface Credentials {
  gateway: Record<string, string>;
  services: Record<string, string>;
}

/** PRINCIPAL_KEYS as files in `dir`, and the environment that names them. */
export async function credentials(dir: string): Promise<Credentials> {
  const files = await PRINCIPAL_KEYS.writeTo(dir);
  return {
    gateway: { PRINCIPAL_SIGNING_KEY_FILE: files.signingKeyFile },
    services: { PRINCIPAL_PUBLIC_KEYS_FILE: files.publicKeysFile, ITEMS_READER_TOKEN },
  };
}

interface LineWatch {
  match: (line: string) => boolean;
  seen: (line: string) => void;
}

export class Proc {
  private child: ChildProcess | undefined;
  private output = '';
  private readonly watches: LineWatch[] = [];

  constructor(
    readonly name: string,
    private readonly script: string,
    private readonly env: Record<string, string>,
    readonly port: number,
    /** the gateway's monitoring listener (/metrics, live /readyz); a service serves them on `port` */
    readonly metricsPort: number = port,
  ) {}

  /** everything the process (all its runs) wrote to stdout and stderr */
  get lines(): string[] {
    return this.output.split('\n').filter((l) => l.length > 0);
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the process; resolves once `ready()` holds (or rejects if it exits first). */
  async start(ready: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
    const path = join(ROOT, this.script);
    if (!existsSync(path)) throw new Error(`${path} is missing: build first (npm run build)`);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && k !== 'NODE_OPTIONS' && k !== 'DATABASE_URL') env[k] = v;
    const child = spawn(process.execPath, [path], {
      cwd: ROOT,
      env: { ...env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      let partial = '';
      stream?.setEncoding('utf8').on('data', (c: string) => {
        this.output += c;
        const lines = (partial + c).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) this.notify(line);
      });
    }
    const deadline = Date.now() + timeoutMs;
    while (!(await ready().catch(() => false))) {
      if (!this.running)
        throw new Error(`${this.name} exited with ${child.exitCode} before it was ready\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`${this.name} not ready within ${timeoutMs} ms\n${this.output}`);
      await new Promise((ok) => setTimeout(ok, 50));
    }
  }

  /**
   * Resolves with the first line written after this call that `match`
   * accepts, as it arrives (the caller can act on it before the process
   * writes more); rejects naming `what` after `timeoutMs`.
   */
  nextLine(match: (line: string) => boolean, timeoutMs: number, what: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const watch: LineWatch = {
        match,
        seen: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      };
      const timer = setTimeout(() => {
        this.watches.splice(this.watches.indexOf(watch), 1);
        reject(new Error(`${this.name}: no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.watches.push(watch);
    });
  }

  private notify(line: string): void {
    for (const watch of [...this.watches]) {
      if (!watch.match(line)) continue;
      this.watches.splice(this.watches.indexOf(watch), 1);
      watch.seen(line);
    }
  }

  /**
   * Answers /healthz and holds its own ports. A port from freePort() is free
   * only until it is bound: another suite's process may take it first, and
   * its /healthz would then pass for this one's (once: a gateway with
   * another admin token).
   */
  async serving(): Promise<boolean> {
    const pid = this.child?.pid;
    if (pid === undefined || !this.running) return false;
    return (
      (await answers(`http://127.0.0.1:${this.port}/healthz`)) &&
      (await listensOn(pid, [...new Set([this.port, this.metricsPort])]))
    );
  }

  /** Sends `signal` and resolves to the exit code (null when killed by the signal). */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = this.child;
    if (!child || !this.running) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
    child.kill(signal);
    return exited;
  }
}

/**
 * True when process `pid` holds a listening TCP socket on each of `ports`
 * (Linux: /proc/net/tcp{,6} give the socket inodes, /proc/<pid>/fd the
 * process's). Without /proc it cannot tell, and says true.
 */
async function listensOn(pid: number, ports: number[]): Promise<boolean> {
  const tables = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map((f) => readFile(f, 'utf8').catch(() => undefined)),
  );
  if (tables.every((t) => t === undefined)) return true;
  const inodes = new Map<number, Set<string>>(ports.map((port) => [port, new Set()]));
  for (const line of tables.join('\n').split('\n')) {
    // sl local_address rem_address st ... inode: "0: 0100007F:1F90 00000000:0000 0A ..."
    const fields = line.trim().split(/\s+/);
    const port = parseInt(fields[1]?.split(':')[1] ?? '', 16);
    if (fields[3] === '0A' && inodes.has(port)) inodes.get(port)!.add(fields[9] ?? '');
  }
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  const owned = new Set(
    (await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')))).map(
      (l) => /^socket:\[(\d+)\]$/.exec(l)?.[1],
    ),
  );
  return [...inodes.values()].every((set) => [...set].some((inode) => owned.has(inode)));
}

/** True when GET `url` answers 2xx within a second. */
async function answers(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
  await res.arrayBuffer();
  return res.ok;
}

export interface Topology {
  databaseUrl: string;
  /** the embedded database process; absent on a server */
  postgres?: Proc;
  collections: Proc;
  catalog: Proc;
  gateway: Proc;
  client: Client;
  /** every line every process wrote */
  allLines(): string[];
  /** (re)starts a service process and waits for its /healthz */
  restart(proc: Proc): Promise<void>;
  dispose(): Promise<void>;
}

export interface TopologyOptions {
  logLevel?: string;
  /** always an embedded Postgres process, even when DATABASE_URL names a server (database restart tests) */
  embedded?: boolean;
  /** the gateway's environment on top of the shared one (e.g. its rate limits) */
  gatewayEnv?: Record<string, string>;
}

export interface ServiceProcesses {
  collections: Proc;
  catalog: Proc;
  gateway: Proc;
}

export interface ServiceProcessOptions {
  /** to all three (database, log level...) */
  shared: Record<string, string>;
  credentials: Credentials;
  /** names the processes */
  suffix?: string;
  /** to the gateway only */
  gatewayEnv?: Record<string, string>;
}

/**
 * The three services on free ports, not started: catalog-service and the
 * gateway pointed at this collections-service (and the gateway at this
 * catalog-service).
 */
export async function serviceProcesses(options: ServiceProcessOptions): Promise<ServiceProcesses> {
  const { shared, credentials: creds, suffix = '', gatewayEnv = {} } = options;
  const [collectionsPort, catalogPort, gatewayPort, gatewayMetricsPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const collectionsUrl = `http://127.0.0.1:${collectionsPort}`;
  const services = { ...shared, ...creds.services };
  return {
    collections: new Proc(
      `collections-service${suffix}`,
      'collections-service/dist/main.js',
      { ...services, PORT: String(collectionsPort) },
      collectionsPort,
    ),
    catalog: new Proc(
      `catalog-service${suffix}`,
      'catalog-service/dist/main.js',
      { ...services, PORT: String(catalogPort), POLL_INTERVAL_MS: '50', COLLECTIONS_URL: collectionsUrl },
      catalogPort,
    ),
    gateway: new Proc(
      `gateway${suffix}`,
      'gateway/dist/main.js',
      {
        ...shared,
        ...creds.gateway,
        PORT: String(gatewayPort),
        METRICS_PORT: String(gatewayMetricsPort),
        // every process calls from 127.0.0.1: the failure budget would count all the suites' refused keys together
        AUTH_FAILURES_PER_MINUTE: '100000',
        SESSION_REQUESTS_PER_MINUTE: '100000',
        ADMIN_TOKEN,
        CATALOG_URL: `http://127.0.0.1:${catalogPort}`,
        COLLECTIONS_URL: collectionsUrl,
        ...gatewayEnv,
      },
      gatewayPort,
      gatewayMetricsPort,
    ),
  };
}

export interface TestDatabaseProcess {
  databaseUrl: string;
  /** the embedded database process; absent on a server */
  postgres?: Proc;
  drop(): Promise<void>;
}

/** A fresh database on the server in DATABASE_URL, else (or with `embedded`) an embedded Postgres process in `dataDir`. */
export async function startDatabase(dataDir: string, embedded = false): Promise<TestDatabaseProcess> {
  if (process.env.DATABASE_URL && !embedded) {
    const server = await createTestDatabase();
    return { databaseUrl: server.url, drop: () => server.drop() };
  }
  const pgPort = await freePort();
  // a password of the test's own, so a restarted database keeps the URL the services hold
  const password = randomBytes(18).toString('base64url');
  const env = { DATA_DIR: join(dataDir, 'pgdata'), PG_PORT: String(pgPort), PG_PASSWORD: password };
  const postgres = new Proc('postgres', 'standalone/dist/embedded-postgres-main.js', env, pgPort);
  try {
    await postgres.start(async () => postgres.lines.some((l) => l.startsWith('READY ')));
  } catch (err) {
    await postgres.stop('SIGKILL');
    throw err;
  }
  return {
    databaseUrl: `postgres://postgres:${password}@127.0.0.1:${pgPort}/postgres?sslmode=disable`,
    postgres,
    drop: async () => void (await postgres.stop('SIGKILL')),
  };
}

export async function startTopology(options: TopologyOptions = {}): Promise<Topology> {
  const dataDir = await mkdtemp(join(tmpdir(), 'skills-rel-'));
  let db: TestDatabaseProcess | undefined;
  const started: Proc[] = [];
  const dispose = async () => {
    for (const p of [...started].reverse()) await p.stop('SIGKILL');
    await db?.drop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    db = await startDatabase(dataDir, options.embedded);
    const { databaseUrl, postgres } = db;
    if (postgres) started.push(postgres);
    const { collections, catalog, gateway } = await serviceProcesses({
      shared: { DATABASE_URL: databaseUrl, LOG_LEVEL: options.logLevel ?? 'warn' },
      credentials: await credentials(dataDir),
      gatewayEnv: options.gatewayEnv,
    });
    const restart = async (proc: Proc) => {
      if (!started.includes(proc)) started.push(proc);
      await proc.start(() => proc.serving());
    };
    // Migrations of one schema at a time: the services start one after the other.
    for (const proc of [collections, catalog, gateway]) await restart(proc);
    return {
      databaseUrl,
      postgres,
      collections,
      catalog,
      gateway,
      client: new Client(`http://127.0.0.1:${gateway.port}`),
      allLines: () => started.flatMap((p) => p.lines),
      restart,
      dispose,
    };
  } catch (err) {
    await dispose();
    throw err;
  }
}

/** Creates an account on `plan` and a key for it through the admin API. */
export async function newKey(
  client: Client,
  plan: 'pro' | 'team' = 'pro',
): Promise<{ accountId: string; key: string }> {
  const email = `rel-${Math.random().toString(36).slice(2)}@example.com`;
  const account = await client.call('POST', '/admin/v1/accounts', { token: ADMIN_TOKEN, json: { email, plan } });
  if (account.status !== 201) throw new Error(`account: ${account.status} ${JSON.stringify(account.body)}`);
  const accountId = account.body.data.account.id as string;
  const key = await client.call('POST', `/admin/v1/accounts/${accountId}/api-keys`, { token: ADMIN_TOKEN, json: {} });
  if (key.status !== 201) throw new Error(`key: ${key.status} ${JSON.stringify(key.body)}`);
  return { accountId, key: key.body.data.apiKey.key as string };
}

/** An ndjson import body of `count` public skills named `<prefix>-<n>`. */
export function catalogLines(prefix: string, count: number): string {
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      slug: `${prefix}-${i}`,
      name: `${prefix} tool ${i}`,
      description: 'Generated for a reliability test.',
      type: 'skill',
      category: 'testing',
      tags: [prefix],
    }),
  ).join('\n');
}

export async function importCatalog(client: Client, body: string): Promise<void> {
  const res = await client.call('POST', '/admin/v1/skills:import', {
    token: ADMIN_TOKEN,
    raw: body,
    headers: { 'content-type': 'application/x-ndjson' },
  });
  if (res.status !== 200) throw new Error(`import: ${res.status} ${JSON.stringify(res.body)}`);
}
