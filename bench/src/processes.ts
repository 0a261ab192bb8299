/**
 * Starts the system under test as separate processes, as it is deployed: the
 * database (a fresh database on the server in DATABASE_URL, else PGlite in a
 * child process of its own), collections-service, catalog-service, the
 * gateway and the baseline server. Each runs on its own event loop, so the
 * load generator in this process competes for the CPU only as a real client
 * on the same machine would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PrincipalSigner,
  createScratchDatabase,
  fixedKeys,
  parseSigningKey,
  writePrincipalKeyFiles,
} from '@skills/common';
import { freePort } from '@skills/common/testing';
import { processesNamed, type CpuSources } from './cpu-accounting';

const ROOT = join(__dirname, '..', '..');

export interface Child {
  name: string;
  url: string;
  process: ChildProcess;
}

/**
 * Spawns `node <script>` and resolves once GET `readyPath` answers 200 (or
 * rejects when it exits). `port`: a given port (a restart keeps its URL), else a free one.
 */
async function startChild(
  name: string,
  script: string,
  env: Record<string, string>,
  readyPath: string,
  extraArgs: string[] = [],
  port?: number,
): Promise<Child> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  // BENCH_LOG_DIR keeps each service's log (LOG_LEVEL) in <dir>/<name>.log; otherwise it is discarded.
  const logDir = process.env.BENCH_LOG_DIR;
  const out = logDir ? openSync(join(logDir, `${name}.log`), 'a') : 'ignore';
  const child = spawn(process.execPath, [...extraArgs, join(ROOT, script)], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', out, 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}): ${stderr}`);
    const ok = await fetch(`${url}${readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { name, url, process: child };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`${name} not ready after 120 s: ${stderr}`);
}

export async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.process.once('exit', () => resolve()));
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export interface BenchDatabase {
  url: string;
  kind: 'pglite' | 'postgres';
  name: string;
  /** the processes doing its work: PGlite's child, or every process of the server (cpu-accounting.ts) */
  processIds(): Promise<number[]>;
  drop(): Promise<void>;
}

/** A fresh `bench_<ts>` database on the server (dropped afterwards), or PGlite in its own process. */
export async function startDatabase(serverUrl: string | undefined): Promise<BenchDatabase> {
  if (!serverUrl) {
    const entry = join(ROOT, 'standalone', 'dist', 'embedded-postgres-main.js');
    const child = spawn(process.execPath, [entry], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, DATA_DIR: '', PG_PORT: '0' },
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n').find((l) => l.startsWith('READY '));
        if (line) resolve(line.slice(6).trim());
      });
      child.once('exit', (code) => reject(new Error(`embedded database exited (${code})`)));
    });
    const handle: Child = { name: 'pglite', url, process: child };
    const pids = child.pid === undefined ? [] : [child.pid];
    return {
      url,
      kind: 'pglite',
      name: 'pglite (in memory)',
      processIds: async () => pids,
      drop: () => stopChild(handle),
    };
  }
  // The timestamp tells a leftover database (a killed run) from a live one.
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const scratch = await createScratchDatabase(serverUrl, `bench_${stamp}`);
  return {
    url: scratch.url,
    kind: 'postgres',
    name: scratch.name,
    processIds: () => processesNamed('postgres'),
    drop: scratch.drop,
  };
}

/** The stack's processes and its database, read at each run: restarting a service (the cache switch) gives it a new pid. */
export async function stackCpuSources(stack: Stack, db: BenchDatabase, elasticsearchUrl?: string): Promise<CpuSources> {
  return {
    pids: {
      gateway: stack.gateway.process.pid,
      'catalog-service': stack.catalog.process.pid,
      'collections-service': stack.collections.process.pid,
      database: await db.processIds(),
    },
    ...(elasticsearchUrl ? { elasticsearchUrl } : {}),
  };
}

export interface Stack {
  collections: Child;
  /** replaced by restartCatalog(), on the same URL */
  catalog: Child;
  gateway: Child;
  /** signs as the gateway does, for the phases that call catalog-service directly */
  signer: PrincipalSigner;
  adminToken: string;
  /** catalog-service's environment as started (before any restartCatalog override) */
  catalogEnv: Record<string, string>;
  /** the gateway's environment as started (before any restartGateway override) */
  gatewayEnv: Record<string, string>;
  nodeArgs: string[];
  stop(): Promise<void>;
}

export interface StackOptions {
  databaseUrl: string;
  logLevel: string;
  /** node flags for the three services, e.g. --cpu-prof */
  nodeArgs: string[];
  /** extra catalog-service environment, e.g. SEARCH_CACHE_ENTRIES=0 */
  catalogEnv?: Record<string, string>;
  /** extra gateway environment, e.g. ANSWER_CACHE_TTL_MS=0 */
  gatewayEnv?: Record<string, string>;
}

export async function startStack(options: StackOptions): Promise<Stack> {
  // A key pair of the run's own, removed with the stack.
  const keysDir = await mkdtemp(join(tmpdir(), 'bench-keys-'));
  const keys = await writePrincipalKeyFiles(keysDir);
  const signer = new PrincipalSigner({ keys: fixedKeys(parseSigningKey(await readFile(keys.signingKeyFile, 'utf8'))) });
  const adminToken = `adm_${randomBytes(24).toString('base64url')}`;
  const itemsReaderToken = randomBytes(32).toString('base64url');
  const shared = { DATABASE_URL: options.databaseUrl, LOG_LEVEL: options.logLevel, EVENT_LOG: 'postgres' };
  const serviceShared = {
    ...shared,
    PRINCIPAL_PUBLIC_KEYS_FILE: keys.publicKeysFile,
    ITEMS_READER_TOKEN: itemsReaderToken,
  };
  const started: Child[] = [];
  const stop = async () => {
    for (const child of [...started].reverse()) await stopChild(child);
    await rm(keysDir, { recursive: true, force: true });
  };
  try {
    const collections = await startChild(
      'collections-service',
      'collections-service/dist/main.js',
      serviceShared,
      '/healthz',
      options.nodeArgs,
    );
    started.push(collections);
    // 50 ms polling as in `npm start`: on PGlite no NOTIFY reaches the indexer (a server gets it).
    // No SEARCH_ENGINE here: the service's default engine is the one measured (or the caller's SEARCH_ENGINE).
    const catalogEnv = {
      ...serviceShared,
      POLL_INTERVAL_MS: '50',
      COLLECTIONS_URL: collections.url,
      ...options.catalogEnv,
    };
    const catalog = await startChild(
      'catalog-service',
      'catalog-service/dist/main.js',
      catalogEnv,
      '/readyz',
      options.nodeArgs,
    );
    started.push(catalog);
    const gatewayEnv = {
      ...shared,
      PRINCIPAL_SIGNING_KEY_FILE: keys.signingKeyFile,
      ADMIN_TOKEN: adminToken,
      CATALOG_URL: catalog.url,
      COLLECTIONS_URL: collections.url,
      // The bench measures throughput, not the per-key quota: every limit off (0 = disabled).
      RATE_LIMIT_PRO_PER_MINUTE: '0',
      RATE_LIMIT_TEAM_PER_MINUTE: '0',
      // the monitoring listener on a free port: two stacks on one machine must not collide on 9464
      METRICS_PORT: '0',
      ...options.gatewayEnv,
    };
    const gateway = await startChild('gateway', 'gateway/dist/main.js', gatewayEnv, '/readyz', options.nodeArgs);
    started.push(gateway);
    const stack: Stack = {
      collections,
      catalog,
      gateway,
      signer,
      adminToken,
      catalogEnv,
      gatewayEnv,
      nodeArgs: options.nodeArgs,
      // the current children: restartCatalog() may have replaced catalog-service
      stop: async () => {
        for (const child of [stack.gateway, stack.catalog, stack.collections]) await stopChild(child);
        await rm(keysDir, { recursive: true, force: true });
      },
    };
    return stack;
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Restarts only catalog-service, on the same port so the gateway's
 * CATALOG_URL stays valid, with `overrides` on top of its original
 * environment; resolves once the new process answers /readyz.
 */
export async function restartCatalog(stack: Stack, overrides: Record<string, string>): Promise<void> {
  const port = Number(new URL(stack.catalog.url).port);
  await stopChild(stack.catalog);
  stack.catalog = await startChild(
    'catalog-service',
    'catalog-service/dist/main.js',
    { ...stack.catalogEnv, ...overrides },
    '/readyz',
    stack.nodeArgs,
    port,
  );
}

/** Restarts only the gateway, on the same port, with `overrides` on top of its original environment. */
export async function restartGateway(stack: Stack, overrides: Record<string, string>): Promise<void> {
  const port = Number(new URL(stack.gateway.url).port);
  await stopChild(stack.gateway);
  stack.gateway = await startChild(
    'gateway',
    'gateway/dist/main.js',
    { ...stack.gatewayEnv, ...overrides },
    '/readyz',
    stack.nodeArgs,
    port,
  );
}

/** The baseline: a bare node:http server answering `bodyFile` to every request. */
export function startBaseline(bodyFile: string): Promise<Child> {
  return startChild('baseline', 'bench/dist/baseline-server.js', { BODY_FILE: bodyFile }, '/');
}

/** Ctrl-C (or a CI timeout) must not leave the services, the database or a run's indices behind: `cleanup`, then exit 130. */
export function cleanUpOnSignal(cleanup: () => Promise<void>, what = 'stopping the services'): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: ${what}\n`);
      void cleanup().finally(() => process.exit(130));
    });
  }
}
