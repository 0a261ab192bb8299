/**
 * The one file that knows the three service packages. Each service runs as
 * a process of its own, started the one way every service starts: its
 * built `main.js` (runService) with an env-shaped record, so it has an event
 * loop and a core of its own. The launcher validates each record first
 * through the service's own `load<Service>Config`, so a bad variable fails
 * `npm start` with the service's own message before anything is spawned.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import type { StartedMessage } from '@skills/common';
import { loadCatalogConfig } from '@skills/catalog-service';
import { loadCollectionsConfig } from '@skills/collections-service';
import { loadGatewayConfig } from '@skills/gateway';

export interface StackOptions {
  databaseUrl: string;
  /** the gateway reads the signing key file, the services the public one */
  principalKeys: { signingKeyFile: string; publicKeysFile: string };
  /** the reindex's read-only credential, shared by catalog-service and collections-service */
  itemsReaderToken: string;
  adminToken: string;
  gatewayPort: number;
  logLevel: string;
  /** extra gateway variables (rate limits, Redis) */
  gatewayEnv?: Readonly<Record<string, string>>;
  /** extra catalog-service variables (search cache, index poll) */
  catalogEnv?: Readonly<Record<string, string>>;
  /** collections-service settings passed through (REPORTS_PER_ACCOUNT_PER_DAY) */
  collectionsEnv?: Readonly<Record<string, string>>;
  /** a service process ended while the stack was up (not by close()) */
  onExit?(service: ServiceName, code: number | null): void;
}

export type ServiceName = 'collections-service' | 'catalog-service' | 'gateway';

/** A running service process: where it listens and its process id. */
export interface ServiceProcessInfo {
  pid: number;
  url: string;
}

export interface StartedStack {
  gatewayUrl: string;
  /** the gateway's monitoring listener */
  metricsUrl: string;
  processes: Record<ServiceName, ServiceProcessInfo>;
  close(): Promise<void>;
}

/** Past a service's own 10 s drain and the release of its database pool: a process that is still there is stuck. */
const STOP_GRACE_MS = 30_000;

interface ServiceChild extends ServiceProcessInfo {
  name: ServiceName;
  metricsUrl?: string;
  stop(): Promise<void>;
}

function entryPoint(name: ServiceName): string {
  const pkg = { 'collections-service': '@skills/collections-service', 'catalog-service': '@skills/catalog-service', gateway: '@skills/gateway' }[name];
  // beside the package's built index (its `main`)
  return join(dirname(require.resolve(pkg)), 'main.js');
}

/**
 * Spawns `name` with exactly `env` (PATH and NODE_OPTIONS aside: nothing of
 * the launcher's own leaks in), its output on the launcher's, and resolves
 * once it says where it listens (runService's StartedMessage).
 */
function spawnService(name: ServiceName, env: Record<string, string>, onExit: (code: number | null) => void): Promise<ServiceChild> {
  const inherited = Object.fromEntries(['PATH', 'NODE_OPTIONS'].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k] as string]));
  const child: ChildProcess = spawn(process.execPath, [entryPoint(name)], { env: { ...inherited, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let up = false;
  let stopping = false;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise<ServiceChild>((resolve, reject) => {
    child.once('error', reject);
    void exited.then((code) => {
      reject(new Error(`${name} exited (${code ?? 'signal'}) before it was up`));
      if (up && !stopping) onExit(code);
    });
    child.on('message', (message: StartedMessage) => {
      if (message?.kind !== 'started' || message.url === undefined) return;
      up = true;
      resolve({
        name,
        pid: child.pid as number,
        url: message.url,
        metricsUrl: message.metricsUrl,
        async stop() {
          stopping = true;
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
          await exited;
          clearTimeout(timer);
        },
      });
    });
  });
}

export async function startStack(options: StackOptions): Promise<StartedStack> {
  const shared = {
    DATABASE_URL: options.databaseUrl,
    LOG_LEVEL: options.logLevel,
  };
  const serviceShared = {
    ...shared,
    PRINCIPAL_PUBLIC_KEYS_FILE: options.principalKeys.publicKeysFile,
    ITEMS_READER_TOKEN: options.itemsReaderToken,
  };
  const started: ServiceChild[] = [];
  const closeStarted = async () => {
    // Reverse start order (gateway first); each stop is attempted even if an earlier one failed.
    let first: unknown;
    for (const service of [...started].reverse()) {
      try {
        await service.stop();
      } catch (err) {
        first ??= err;
      }
    }
    if (first !== undefined) throw first;
  };
  const start = async (name: ServiceName, env: Record<string, string>, validate: (env: Record<string, string>) => unknown) => {
    validate(env);
    const child = await spawnService(name, env, (code) => options.onExit?.(name, code));
    started.push(child);
    return child;
  };
  try {
    // Port 0: the services listen on free loopback ports only the gateway learns.
    const collections = await start(
      'collections-service',
      { ...serviceShared, ...options.collectionsEnv, PORT: '0', EVENT_LOG: 'postgres' },
      loadCollectionsConfig,
    );
    // COLLECTIONS_URL: the reindex job reads the system of record from collections-service.
    // POLL_INTERVAL_MS 50: PGlite's shared session cannot route NOTIFY to the indexer's
    // connection, so polling is what bounds the index lag here; a poll is one indexed read.
    const catalog = await start(
      'catalog-service',
      {
        ...serviceShared,
        ...options.catalogEnv,
        PORT: '0',
        SEARCH_ENGINE: 'memory',
        EVENT_LOG: 'postgres',
        POLL_INTERVAL_MS: '50',
        COLLECTIONS_URL: collections.url,
      },
      loadCatalogConfig,
    );
    const gateway = await start(
      'gateway',
      {
        ...shared,
        ...options.gatewayEnv,
        PRINCIPAL_SIGNING_KEY_FILE: options.principalKeys.signingKeyFile,
        PORT: String(options.gatewayPort),
        // the monitoring listener (/metrics, live /readyz) on a free loopback port, printed in the banner
        METRICS_PORT: '0',
        ADMIN_TOKEN: options.adminToken,
        CATALOG_URL: catalog.url,
        COLLECTIONS_URL: collections.url,
      },
      loadGatewayConfig,
    );
    const info = (child: ServiceChild): ServiceProcessInfo => ({ pid: child.pid, url: child.url });
    return {
      gatewayUrl: gateway.url,
      metricsUrl: gateway.metricsUrl ?? '',
      processes: { 'collections-service': info(collections), 'catalog-service': info(catalog), gateway: info(gateway) },
      close: closeStarted,
    };
  } catch (err) {
    await closeStarted().catch(() => undefined);
    throw err;
  }
}
