import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Logger } from 'pino';

/**
 * A forward-only schema change. `up` is SQL (one string may hold several
 * statements) or a function given the migration's transaction.
 */
export interface Migration {
  id: string;
  up: string | ((sequelize: Sequelize, transaction: Transaction) => Promise<void>);
}

/**
 * Applies the migrations of one schema that are not yet recorded, in order,
 * in one transaction under an advisory lock, so replicas starting together
 * migrate once and a failed migration leaves nothing half-applied.
 */
export async function runMigrations(
  sequelize: Sequelize,
  schema: string,
  migrations: readonly Migration[],
  logger?: Logger,
): Promise<string[]> {
  const applied: string[] = [];
  await sequelize.transaction(async (transaction) => {
    await sequelize.query('SELECT pg_advisory_xact_lock(hashtext(:schema))', {
      replacements: { schema: `migrations:${schema}` },
      transaction,
    });
    await sequelize.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`, { transaction });
    await sequelize.query(
      `CREATE TABLE IF NOT EXISTS "${schema}".schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      { transaction },
    );
    const rows = await sequelize.query<{ id: string }>(`SELECT id FROM "${schema}".schema_migrations`, {
      type: QueryTypes.SELECT,
      transaction,
    });
    const done = new Set(rows.map((r) => r.id));
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      if (typeof migration.up === 'string') await sequelize.query(migration.up, { transaction });
      else await migration.up(sequelize, transaction);
      await sequelize.query(`INSERT INTO "${schema}".schema_migrations (id) VALUES (:id)`, {
        replacements: { id: migration.id },
        transaction,
      });
      applied.push(migration.id);
    }
  });
  if (applied.length > 0) logger?.info({ schema, applied }, 'migrations applied');
  return applied;
}
