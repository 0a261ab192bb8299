/**
 * Brings up the whole stack from one command: the database (embedded PGlite
 * in this process unless DATABASE_URL), the two services on free loopback
 * ports and the gateway on the public port, each a process of its own
 * (services.ts), then the demo data. `close()` stops them in reverse order,
 * the gateway first so no request reaches a stopped service, the database
 * last.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { privateDirectory, startEmbeddedPostgres, type Logger } from '@skills/common';
import { resolveAdminToken, type AdminTokenSource } from './admin-token';
import type { LauncherConfig } from './launcher-config';
import { resolvePrincipalKeys } from './principal-key-rotation';
import type { SampleData } from './sample-data';
import { seedDemo, type DemoCredentials } from './seed';
import { startStack, type ServiceName, type ServiceProcessInfo } from './services';

export interface RunningStack {
  gatewayUrl: string;
  /** the gateway's monitoring listener (/metrics, live /readyz) */
  metricsUrl: string;
  adminToken: AdminTokenSource;
  demo: DemoCredentials;
  database: 'embedded' | 'external';
  /** what runs where, when it is not the one-process default (the distributed launcher) */
  topology?: string;
  /** milliseconds from launch() to everything ready, seeding included */
  startupMs: number;
  /** each service's process id and address (the bench reads them; the distributed launcher has replicas instead) */
  processes?: Record<ServiceName, ServiceProcessInfo>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  config: LauncherConfig;
  /** logger factory: one child per service name */
  loggerFor(service: string): Logger;
  /** what a first start loads */
  sample: SampleData;
  /** a service process ended on its own while the stack was up */
  onServiceExit?(service: ServiceName, code: number | null): void;
}

/** Runs `steps` in order, continuing past failures, and rethrows the first one. */
export async function closeAll(steps: Array<() => Promise<void>>): Promise<void> {
  let first: unknown;
  for (const step of steps) {
    try {
      await step();
    } catch (err) {
      first ??= err;
    }
  }
  if (first !== undefined) throw first;
}

export async function launch(options: LaunchOptions): Promise<RunningStack> {
  const started = Date.now();
  const { config } = options;
  const logger = options.loggerFor('standalone');
  // The database files, the admin token and the demo ids are for this user only.
  await privateDirectory(config.dataDir);
  const adminToken = await resolveAdminToken(config.dataDir, config.adminToken);
  const principalKeys = await resolvePrincipalKeys(config.dataDir);

  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({ dataDir: join(config.dataDir, 'pgdata') });
  const databaseUrl = config.databaseUrl ?? (embedded as { url: string }).url;
  logger.info({ ms: Date.now() - started, embedded: embedded !== undefined }, 'database ready');
  const cleanup: Array<() => Promise<void>> = embedded ? [() => embedded.stop()] : [];
  try {
    const stack = await startStack({
      databaseUrl,
      principalKeys,
      // One token per process lifetime: catalog-service's reindex and collections-service share it in memory only.
      itemsReaderToken: randomBytes(32).toString('base64url'),
      adminToken: adminToken.token,
      gatewayPort: config.port,
      logLevel: config.logLevel,
      passedOn: config.passedOn,
      onExit: options.onServiceExit,
    });
    cleanup.unshift(() => stack.close());
    logger.info({ ms: Date.now() - started }, 'services started');
    const demo = await seedDemo({
      gatewayUrl: stack.gatewayUrl,
      adminToken: adminToken.token,
      dataDir: config.dataDir,
      sample: options.sample,
      logger,
    });
    logger.info({ ms: Date.now() - started, seeded: demo.seeded }, 'demo data ready');
    return {
      gatewayUrl: stack.gatewayUrl,
      metricsUrl: stack.metricsUrl,
      adminToken,
      demo,
      database: embedded ? 'embedded' : 'external',
      startupMs: Date.now() - started,
      processes: stack.processes,
      close: () => closeAll(cleanup),
    };
  } catch (err) {
    await closeAll(cleanup).catch((closeErr: unknown) => logger.warn({ err: closeErr }, 'cleanup after failed start'));
    throw err;
  }
}
