/**
 * What every service holds before it serves, opened the same way: its
 * principal key file, then its database with its own schema migrated. A
 * failure at any step releases what the earlier steps opened, so a refused
 * start leaves no key-file timer or pool behind (a test process, the
 * embedded run's next service).
 */
import type { Sequelize } from 'sequelize';
import type { Logger } from '../logger';
import { runMigrations, type Migration } from '../db/migrations';
import { createSequelize } from '../db/sequelize';
import { keyFileOf, openPublicKeysFile, type KeyFileOptions } from '../principal-key-files';
import type { BackendServiceConfig, ServiceConfig } from '../service-env';

export interface KeysAndDatabaseOptions<K extends { close(): void }> {
  /** the service's name: `application_name` in pg_stat_activity */
  name: string;
  /** DATABASE_URL, DB_POOL_MAX and PRINCIPAL_KEYS_RELOAD_MS come from here */
  config: Pick<ServiceConfig, 'databaseUrl' | 'dbPoolMax' | 'principalKeysReloadMs'>;
  /**
   * The principal key file: `variable` names it in a start refused for a bad
   * file; `open` is openPublicKeysFile (the services check principals) or
   * openSigningKeyFile (the gateway makes them).
   */
  keyFile: { variable: string; path: string; open(options: KeyFileOptions): Promise<K> };
  /** the schema the service owns and the migrations that build it */
  schema: string;
  migrations: readonly Migration[];
  logger: Logger;
}

/** The key file of a service behind the gateway: public keys only, it can check a principal, never make one. */
export function publicKeysFileOf(config: Pick<BackendServiceConfig, 'principalPublicKeysFile'>) {
  return { variable: 'PRINCIPAL_PUBLIC_KEYS_FILE', path: config.principalPublicKeysFile, open: openPublicKeysFile };
}

export interface KeysAndDatabase<K> {
  keys: K;
  /** migrated: every migration of `schema` is applied */
  sequelize: Sequelize;
  /** stops reading the key file and closes the pool: the last step of a service's close() */
  close(): Promise<void>;
}

export async function openKeysAndDatabase<K extends { close(): void }>(
  options: KeysAndDatabaseOptions<K>,
): Promise<KeysAndDatabase<K>> {
  const { config, keyFile, logger } = options;
  // Keys first: a bad file is a configuration error, reported before any connection is tried.
  const keys = await keyFileOf(
    keyFile.variable,
    keyFile.open({ path: keyFile.path, reloadMs: config.principalKeysReloadMs, logger }),
  );
  const sequelize = createSequelize({
    url: config.databaseUrl,
    poolMax: config.dbPoolMax,
    logger,
    applicationName: options.name,
  });
  const close = async () => {
    keys.close();
    await sequelize.close();
  };
  try {
    await runMigrations(sequelize, options.schema, options.migrations, logger);
  } catch (err) {
    await close();
    throw err;
  }
  return { keys, sequelize, close };
}
