/**
 * The one file that knows the three service packages. Each service is
 * configured through its own `load<Service>Config` from an env-shaped record,
 * exactly as its own main.ts would be, so the embedded run exercises the same
 * validation and defaults as the distributed one.
 */
import type Joi from 'joi';
import { ConfigError, type Logger } from '@skills/common';
import { CATALOG_ENV, loadCatalogConfig, startCatalogService } from '@skills/catalog-service';
import { COLLECTIONS_ENV, loadCollectionsConfig, startCollectionsService } from '@skills/collections-service';
import { GATEWAY_ENV, loadGatewayConfig, startGateway } from '@skills/gateway';

type Service = 'gateway' | 'catalog' | 'collections';

/** Each service's variables as given to the launcher, minus those it sets itself (docs/configuration.md). */
export type PassedOnEnv = Readonly<Record<Service, Readonly<Record<string, string>>>>;

const SCHEMAS: Record<Service, Joi.ObjectSchema> = { gateway: GATEWAY_ENV, catalog: CATALOG_ENV, collections: COLLECTIONS_ENV };

/**
 * What the launcher sets for each service, whatever the environment says,
 * with a stand-in value each: `checkPassedOn` validates the passed-on
 * variables beside these before anything starts, and `startStack` sets the
 * real ones. The services listen on loopback only (HOST): the gateway is the
 * one public listener.
 */
const STAND_INS = {
  DATABASE_URL: 'postgres://127.0.0.1:5432/standalone',
  LOG_LEVEL: 'warn',
  PORT: '0',
};
const BACKEND_STAND_INS = {
  ...STAND_INS,
  HOST: '127.0.0.1',
  PRINCIPAL_PUBLIC_KEYS_FILE: 'principal-public-keys.pem',
  ITEMS_READER_TOKEN: 'stand-in'.repeat(4),
  SHED_EVENT_LOOP_DELAY_MS: '0',
  EVENT_LOG: 'postgres',
};
const SET_BY_LAUNCHER: Record<Service, Readonly<Record<string, string>>> = {
  gateway: {
    ...STAND_INS,
    ADMIN_TOKEN: 'stand-in'.repeat(4),
    PRINCIPAL_SIGNING_KEY_FILE: 'principal-signing-key.pem',
    CATALOG_URL: 'http://127.0.0.1:8081',
    COLLECTIONS_URL: 'http://127.0.0.1:8082',
  },
  catalog: { ...BACKEND_STAND_INS, SEARCH_ENGINE: 'memory', POLL_INTERVAL_MS: '50', COLLECTIONS_URL: 'http://127.0.0.1:8082' },
  collections: BACKEND_STAND_INS,
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
  loggerFor(service: string): Logger;
}

export interface StartedStack {
  gatewayUrl: string;
  /** the gateway's monitoring listener */
  metricsUrl: string;
  close(): Promise<void>;
}

interface Closable {
  close(): Promise<void>;
}

export async function startStack(options: StackOptions): Promise<StartedStack> {
  const shared = {
    DATABASE_URL: options.databaseUrl,
    LOG_LEVEL: options.logLevel,
  };
  const given = options.passedOn ?? { gateway: {}, catalog: {}, collections: {} };
  const serviceShared = {
    ...shared,
    HOST: '127.0.0.1',
    PRINCIPAL_PUBLIC_KEYS_FILE: options.principalKeys.publicKeysFile,
    ITEMS_READER_TOKEN: options.itemsReaderToken,
    // One event loop for all three here: a delay one service's work causes (the
    // memory index settling after an import) is not the other's overload, and
    // the gateway's admission already bounds what reaches them.
    SHED_EVENT_LOOP_DELAY_MS: '0',
  };
  const started: Closable[] = [];
  const closeStarted = async () => {
    // Reverse start order (gateway first); each close is attempted even if an earlier one failed.
    let first: unknown;
    for (const service of [...started].reverse()) {
      try {
        await service.close();
      } catch (err) {
        first ??= err;
      }
    }
    if (first !== undefined) throw first;
  };
  try {
    // Port 0: the services listen on free loopback ports only the gateway learns.
    const collections = await startCollectionsService(
      loadCollectionsConfig({ ...given.collections, ...serviceShared, PORT: '0', EVENT_LOG: 'postgres' }),
      options.loggerFor('collections-service'),
    );
    started.push(collections);
    const catalog = await startCatalogService(
      // COLLECTIONS_URL: the reindex job reads the system of record from collections-service.
      // POLL_INTERVAL_MS 50: PGlite's shared session cannot route NOTIFY to the indexer's
      // connection, so polling is what bounds the index lag here; a poll is one indexed read.
      loadCatalogConfig({
        ...given.catalog,
        ...serviceShared,
        PORT: '0',
        SEARCH_ENGINE: 'memory',
        EVENT_LOG: 'postgres',
        POLL_INTERVAL_MS: '50',
        COLLECTIONS_URL: collections.url,
      }),
      options.loggerFor('catalog-service'),
    );
    started.push(catalog);
    const gateway = await startGateway(
      loadGatewayConfig({
        // the monitoring listener (/metrics, live /readyz) on a free port unless METRICS_PORT says, printed in the banner
        METRICS_PORT: '0',
        ...given.gateway,
        ...shared,
        PRINCIPAL_SIGNING_KEY_FILE: options.principalKeys.signingKeyFile,
        PORT: String(options.gatewayPort),
        ADMIN_TOKEN: options.adminToken,
        CATALOG_URL: catalog.url,
        COLLECTIONS_URL: collections.url,
      }),
      options.loggerFor('gateway'),
    );
    started.push(gateway);
    return { gatewayUrl: gateway.url, metricsUrl: gateway.metricsUrl, close: closeStarted };
  } catch (err) {
    await closeStarted().catch(() => undefined);
    throw err;
  }
}
