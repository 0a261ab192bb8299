/**
 * The one file that knows the three service packages. Each service runs as
 * a process of its own, started the one way every service starts: its
 * built `main.js` (runService) with an env-shaped record, so it has an event
 * loop and a core of its own. The launcher checks what it passes on through
 * each service's own `load<Service>Config` first (`checkPassedOn`), so a bad
 * variable fails `npm start` with the service's own message before
 * anything is spawned.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import type Joi from 'joi';
import { ConfigError, type StartedMessage } from '@skills/common';
import { CATALOG_ENV, loadCatalogConfig } from '@skills/catalog-service';
import { COLLECTIONS_ENV, loadCollectionsConfig } from '@skills/collections-service';
import { GATEWAY_ENV, loadGatewayConfig } from '@skills/gateway';

type Service = 'gateway' | 'catalog' | 'collections';

/** Each service's variables as given to the launcher, minus those it sets itself (docs/configuration.md). */
export type PassedOnEnv = Readonly<Record<Service, Readonly<Record<string, string>>>>;

const SCHEMAS: Record<Service, Joi.ObjectSchema> = {
  gateway: GATEWAY_ENV,
  catalog: CATALOG_ENV,
  collections: COLLECTIONS_ENV,
};

/**
 * The settings the embedded run gives the two services whatever the
 * environment says, the same in every run: `checkPassedOn` validates beside
 * them, `startStack` starts with them. The services listen on loopback only
 * (HOST), on free ports (PORT 0) only the gateway learns: the gateway is the
 * one public listener.
 */
const BACKEND_FIXED = { HOST: '127.0.0.1', PORT: '0', EVENT_LOG: 'postgres' };
/**
 * POLL_INTERVAL_MS 50: PGlite's shared session cannot route NOTIFY to the
 * indexer's connection, so polling is what bounds the index lag here; a
 * poll is one indexed read.
 */
const CATALOG_FIXED = { ...BACKEND_FIXED, SEARCH_ENGINE: 'memory', POLL_INTERVAL_MS: '50' };

/**
 * What the launcher sets for each service, whatever the environment says:
 * the fixed settings above, and a stand-in value for each one a run decides
 * (its database, keys, token, the other services' addresses).
 * `checkPassedOn` validates the passed-on variables beside these before
 * anything starts, and `startStack` sets the real ones.
 */
const STAND_INS = {
  DATABASE_URL: 'postgres://127.0.0.1:5432/standalone',
  LOG_LEVEL: 'warn',
};
const BACKEND_STAND_INS = {
  ...STAND_INS,
  PRINCIPAL_PUBLIC_KEYS_FILE: 'principal-public-keys.pem',
  ITEMS_READER_TOKEN: 'stand-in'.repeat(4),
};
const SET_BY_LAUNCHER: Record<Service, Readonly<Record<string, string>>> = {
  gateway: {
    ...STAND_INS,
    PORT: '0',
    ADMIN_TOKEN: 'stand-in'.repeat(4),
    PRINCIPAL_SIGNING_KEY_FILE: 'principal-signing-key.pem',
    CATALOG_URL: 'http://127.0.0.1:8081',
    COLLECTIONS_URL: 'http://127.0.0.1:8082',
  },
  catalog: { ...BACKEND_STAND_INS, ...CATALOG_FIXED, COLLECTIONS_URL: 'http://127.0.0.1:8082' },
  collections: { ...BACKEND_STAND_INS, ...BACKEND_FIXED },
};
/** Settings of what the embedded run does not use (the in-memory index, the Postgres event log): not passed on. */
const UNUSED_HERE = /^(KAFKA|ELASTICSEARCH)_/;

function namesOf(schema: Joi.ObjectSchema): string[] {
  return Object.keys((schema.describe() as { keys?: Record<string, unknown> }).keys ?? {});
}

/**
 * Every variable of a service's own table that `vars` sets, as given, for
 * that service: a variable two services read (REDIS_URL, DB_POOL_MAX) goes
 * to both. Nothing the launcher sets itself, nothing the embedded run does
 * not use.
 */
export function passedOn(vars: Record<string, string | undefined>): PassedOnEnv {
  const select = (service: Service) =>
    Object.freeze(
      Object.fromEntries(
        namesOf(SCHEMAS[service])
          .filter((name) => vars[name] !== undefined && !(name in SET_BY_LAUNCHER[service]) && !UNUSED_HERE.test(name))
          .map((name) => [name, vars[name] as string]),
      ),
    );
  return Object.freeze({ gateway: select('gateway'), catalog: select('catalog'), collections: select('collections') });
}

/** Each service's validation of what is passed on to it, before anything starts: every problem of the three, named. */
export function checkPassedOn(env: PassedOnEnv, gatewayPort: number): string[] {
  const problems: string[] = [];
  const check = (load: () => unknown) => {
    try {
      load();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(...err.problems);
    }
  };
  check(() => loadGatewayConfig({ ...env.gateway, ...SET_BY_LAUNCHER.gateway, PORT: String(gatewayPort) }));
  check(() => loadCatalogConfig({ ...env.catalog, ...SET_BY_LAUNCHER.catalog }));
  check(() => loadCollectionsConfig({ ...env.collections, ...SET_BY_LAUNCHER.collections }));
  return [...new Set(problems)];
}

export interface StackOptions {
  databaseUrl: string;
  /** the gateway reads the signing key file, the services the public one */
  principalKeys: { signingKeyFile: string; publicKeysFile: string };
  /** the reindex's read-only credential, shared by catalog-service and collections-service */
  itemsReaderToken: string;
  adminToken: string;
  gatewayPort: number;
  logLevel: string;
  /** each service's own settings as the operator gave them (`passedOn`) */
  passedOn?: PassedOnEnv;
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
  const pkg = {
    'collections-service': '@skills/collections-service',
    'catalog-service': '@skills/catalog-service',
    gateway: '@skills/gateway',
  }[name];
  // beside the package's built index (its `main`)
  return join(dirname(require.resolve(pkg)), 'main.js');
}

/**
 * Spawns `name` with exactly `env` (PATH and NODE_OPTIONS aside: nothing of
 * the launcher's own leaks in), its output on the launcher's, and resolves
 * once it says where it listens (runService's StartedMessage).
 */
function spawnService(
  name: ServiceName,
  env: Record<string, string>,
  onExit: (code: number | null) => void,
): Promise<ServiceChild> {
  const inherited = Object.fromEntries(
    ['PATH', 'NODE_OPTIONS'].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k] as string]),
  );
  const child: ChildProcess = spawn(process.execPath, [entryPoint(name)], {
    env: { ...inherited, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
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
  const given = options.passedOn ?? { gateway: {}, catalog: {}, collections: {} };
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
  const start = async (name: ServiceName, env: Record<string, string>) => {
    const child = await spawnService(name, env, (code) => options.onExit?.(name, code));
    started.push(child);
    return child;
  };
  try {
    const collections = await start('collections-service', {
      ...given.collections,
      ...serviceShared,
      ...BACKEND_FIXED,
    });
    // COLLECTIONS_URL: the reindex job reads the system of record from collections-service.
    const catalog = await start('catalog-service', {
      ...given.catalog,
      ...serviceShared,
      ...CATALOG_FIXED,
      COLLECTIONS_URL: collections.url,
    });
    const gateway = await start('gateway', {
      // the monitoring listener (/metrics, live /readyz) on a free port unless METRICS_PORT says, printed in the banner
      METRICS_PORT: '0',
      ...given.gateway,
      ...shared,
      PRINCIPAL_SIGNING_KEY_FILE: options.principalKeys.signingKeyFile,
      PORT: String(options.gatewayPort),
      ADMIN_TOKEN: options.adminToken,
      CATALOG_URL: catalog.url,
      COLLECTIONS_URL: collections.url,
    });
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
