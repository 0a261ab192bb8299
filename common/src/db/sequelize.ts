import { Sequelize } from 'sequelize';
import type { Logger } from 'pino';

export interface DatabaseOptions {
  url: string;
  /** connections in this process's pool */
  poolMax?: number;
  logger?: Logger;
  /** name shown in pg_stat_activity */
  applicationName?: string;
}

/**
 * One Sequelize instance per service. Tables are always schema-qualified in
 * models and SQL (each service owns a schema), so no search_path is needed;
 * that also keeps PGlite's socket server, which shares one session between
 * connections, safe.
 */
export function createSequelize(options: DatabaseOptions): Sequelize {
  return new Sequelize(options.url, {
    dialect: 'postgres',
    logging: options.logger ? (sql: string) => options.logger?.trace({ sql }, 'sql') : false,
    pool: { max: options.poolMax ?? 10, min: 0, idle: 10_000, acquire: 10_000 },
    dialectOptions: { application_name: options.applicationName ?? 'skills' },
    define: { underscored: true, timestamps: false, freezeTableName: true },
  });
}
