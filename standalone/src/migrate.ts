/**
 * `node standalone/dist/migrate.js`: applies the migrations of the three
 * schemas (gateway, collections, catalog) to the database in DATABASE_URL,
 * then exits. The container image runs it as the one-shot `migrate` command
 * (docker-compose's `migrate` service, the Kubernetes migration Job), so a
 * schema change lands once, before new replicas start, instead of racing at
 * start-up. Services still migrate on start; with nothing pending that is a
 * no-op under the same advisory lock.
 */
import {
  ConfigError,
  createLogger,
  createSequelize,
  env,
  runMigrations,
  type Logger,
  type Migration,
} from '@skills/common';
import { catalogMigrations } from '@skills/catalog-service';
import { collectionsMigrations } from '@skills/collections-service';
import { gatewayMigrations } from '@skills/gateway';

/** Every schema of the product with its migrations, in the order they run. */
export const SCHEMAS: ReadonlyArray<{ schema: string; migrations: readonly Migration[] }> = [
  { schema: 'gateway', migrations: gatewayMigrations },
  { schema: 'collections', migrations: collectionsMigrations },
  { schema: 'catalog', migrations: catalogMigrations },
];

/** Applies what is pending in every schema; returns the ids applied per schema. */
export async function migrateAll(databaseUrl: string, logger: Logger): Promise<Record<string, string[]>> {
  // One connection is enough: each schema migrates in its own transaction.
  const sequelize = createSequelize({ url: databaseUrl, poolMax: 1, logger, applicationName: 'skills-migrate' });
  try {
    const applied: Record<string, string[]> = {};
    for (const { schema, migrations } of SCHEMAS) {
      applied[schema] = await runMigrations(sequelize, schema, migrations, logger);
    }
    return applied;
  } finally {
    await sequelize.close();
  }
}

function readEnv(source: NodeJS.ProcessEnv): { databaseUrl: string; logLevel: string } {
  const problems: string[] = [];
  const url = env.postgresUrl().required().label('DATABASE_URL').validate(source.DATABASE_URL);
  if (url.error) problems.push(url.error.message);
  const level = env.logLevel().label('LOG_LEVEL').validate(source.LOG_LEVEL);
  if (level.error) problems.push(level.error.message);
  if (problems.length > 0) throw new ConfigError(problems);
  return { databaseUrl: url.value as string, logLevel: level.value as string };
}

async function main(): Promise<void> {
  const config = readEnv(process.env);
  const logger = createLogger({ service: 'migrate', level: config.logLevel });
  const applied = await migrateAll(config.databaseUrl, logger);
  logger.info({ applied }, 'all schemas up to date');
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
