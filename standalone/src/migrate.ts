/**
 * `node standalone/dist/migrate.js`: applies the migrations of the three
 * schemas (gateway, collections, catalog) to the database in DATABASE_URL,
 * as the owner role, then grants each service's own role its schema
 * (schema-grants.ts; GATEWAY_DB_ROLE, COLLECTIONS_DB_ROLE, CATALOG_DB_ROLE),
 * then exits. The container image runs it as the one-shot `migrate` command
 * (docker-compose's `migrate` service, the Kubernetes migration Job), so a
 * schema change lands once, before new replicas start, instead of racing at
 * start-up. Services still migrate on start; with nothing pending that is a
 * no-op under the same advisory lock.
 */
import Joi from 'joi';
import {
  createLogger,
  createSequelize,
  env,
  loadConfig,
  runMigrations,
  type Logger,
  type Migration,
} from '@skills/common';
import { catalogMigrations } from '@skills/catalog-service';
import { collectionsMigrations } from '@skills/collections-service';
import { gatewayMigrations } from '@skills/gateway';
import { ROLE_NAME, grantServiceRoles, type ServiceRoles } from './schema-grants';

/** Every schema of the product with its migrations, in the order they run. */
export const SCHEMAS: ReadonlyArray<{ schema: string; migrations: readonly Migration[] }> = [
  { schema: 'gateway', migrations: gatewayMigrations },
  { schema: 'collections', migrations: collectionsMigrations },
  { schema: 'catalog', migrations: catalogMigrations },
];

export interface MigrateOptions {
  /** each service's own login role, granted its schema after the migrations */
  roles?: ServiceRoles;
  /** the services' EVENT_LOG: with `postgres` two reads cross schemas (schema-grants.ts) */
  eventLog?: 'postgres' | 'kafka';
}

/** Applies what is pending in every schema, then the service roles' grants; returns the ids applied per schema. */
export async function migrateAll(
  databaseUrl: string,
  logger: Logger,
  options: MigrateOptions = {},
): Promise<Record<string, string[]>> {
  // One connection is enough: each schema migrates in its own transaction.
  const sequelize = createSequelize({ url: databaseUrl, poolMax: 1, logger, applicationName: 'skills-migrate' });
  try {
    const applied: Record<string, string[]> = {};
    for (const { schema, migrations } of SCHEMAS) {
      applied[schema] = await runMigrations(sequelize, schema, migrations, logger);
    }
    await grantServiceRoles(sequelize, options.roles ?? {}, options.eventLog ?? 'postgres', logger);
    return applied;
  } finally {
    await sequelize.close();
  }
}

interface MigrateEnv {
  DATABASE_URL: string;
  LOG_LEVEL: string;
  EVENT_LOG: 'postgres' | 'kafka';
  GATEWAY_DB_ROLE?: string;
  COLLECTIONS_DB_ROLE?: string;
  CATALOG_DB_ROLE?: string;
}

const roleName = () =>
  Joi.string()
    .pattern(ROLE_NAME)
    .messages({ 'string.pattern.base': '{#label} must be a role name: lowercase letters, digits and _' });

const schema = Joi.object<MigrateEnv>({
  DATABASE_URL: env.postgresUrl().required(),
  LOG_LEVEL: env.logLevel(),
  EVENT_LOG: env.eventLog(),
  GATEWAY_DB_ROLE: roleName(),
  COLLECTIONS_DB_ROLE: roleName(),
  CATALOG_DB_ROLE: roleName(),
});

export function loadMigrateConfig(
  source: Record<string, string | undefined>,
): Readonly<{ databaseUrl: string; logLevel: string } & Required<MigrateOptions>> {
  const e = loadConfig(schema, source);
  return Object.freeze({
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    eventLog: e.EVENT_LOG,
    roles: Object.freeze({
      gateway: e.GATEWAY_DB_ROLE,
      collections: e.COLLECTIONS_DB_ROLE,
      catalog: e.CATALOG_DB_ROLE,
    }),
  });
}

async function main(): Promise<void> {
  const config = loadMigrateConfig(process.env);
  const logger = createLogger({ service: 'migrate', level: config.logLevel });
  const applied = await migrateAll(config.databaseUrl, logger, config);
  logger.info({ applied }, 'all schemas up to date');
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
