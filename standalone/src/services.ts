/**
 * The one file that knows the three service packages. Each service is
 * configured through its own `load<Service>Config` from an env-shaped record,
 * exactly as its own main.ts would be, so the embedded run exercises the same
 * validation and defaults as the distributed one.
 */
import type { Logger } from '@skills/common';
import { loadCatalogConfig, startCatalogService } from '@skills/catalog-service';
import { loadCollectionsConfig, startCollectionsService } from '@skills/collections-service';
import { loadGatewayConfig, startGateway } from '@skills/gateway';

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
  const serviceShared = {
    ...shared,
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
      loadCollectionsConfig({ ...serviceShared, ...options.collectionsEnv, PORT: '0', EVENT_LOG: 'postgres' }),
      options.loggerFor('collections-service'),
    );
    started.push(collections);
    const catalog = await startCatalogService(
      // COLLECTIONS_URL: the reindex job reads the system of record from collections-service.
      // POLL_INTERVAL_MS 50: PGlite's shared session cannot route NOTIFY to the indexer's
      // connection, so polling is what bounds the index lag here; a poll is one indexed read.
      loadCatalogConfig({
        ...serviceShared,
        ...options.catalogEnv,
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
        ...shared,
        ...options.gatewayEnv,
        PRINCIPAL_SIGNING_KEY_FILE: options.principalKeys.signingKeyFile,
        PORT: String(options.gatewayPort),
        // the monitoring listener (/metrics, live /readyz) on a free loopback port, printed in the banner
        METRICS_PORT: '0',
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
