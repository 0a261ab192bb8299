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

/** The ids already applied to `schema`; none when its bookkeeping table does not exist yet. Reads only. */
async function appliedIds(
  sequelize: Sequelize,
  schema: string,
  transaction: Transaction,
): Promise<Set<string> | undefined> {
  const [table] = await sequelize.query<{ present: boolean }>(`SELECT to_regclass(:table) IS NOT NULL AS present`, {
    replacements: { table: `"${schema}".schema_migrations` },
    type: QueryTypes.SELECT,
    transaction,
  });
  if (!table?.present) return undefined;
  const rows = await sequelize.query<{ id: string }>(`SELECT id FROM "${schema}".schema_migrations`, {
    type: QueryTypes.SELECT,
    transaction,
  });
  return new Set(rows.map((r) => r.id));
}

/** A service role on a schema it may not change or read: say what to do instead of a bare "permission denied". */
export class MigrationPrivilegeError extends Error {
  constructor(schema: string, options: { cause: unknown }) {
    super(
      `schema "${schema}" is not ready for this database role (migrations to apply, or no rights on it): run the migrate command as the owner role, which applies them and grants each service role its schema (docs/deploy.md "Database roles")`,
      options,
    );
    this.name = 'MigrationPrivilegeError';
  }
}

/** SQLSTATE 42501, insufficient_privilege */
function isPrivilegeError(err: unknown): boolean {
  const original = (err as { original?: { code?: string }; parent?: { code?: string } } | null) ?? {};
  return (original.original?.code ?? original.parent?.code) === '42501';
}

/**
 * Applies the migrations of one schema that are not yet recorded, in order,
 * in one transaction under an advisory lock, so replicas starting together
 * migrate once and a failed migration leaves nothing half-applied. With
 * nothing to apply it only reads: a service running as a role that may not
 * change its schema (the migrate command ran as the owner) starts all the same.
 */
export async function runMigrations(
  sequelize: Sequelize,
  schema: string,
  migrations: readonly Migration[],
  logger?: Logger,
): Promise<string[]> {
  const applied: string[] = [];
  await sequelize
    .transaction(async (transaction) => {
      await sequelize.query('SELECT pg_advisory_xact_lock(hashtext(:schema))', {
        replacements: { schema: `migrations:${schema}` },
        transaction,
      });
      const done = await appliedIds(sequelize, schema, transaction);
      if (done && migrations.every((m) => done.has(m.id))) return;
      applied.push(...(await applyPending(sequelize, schema, migrations, transaction)));
    })
    .catch((err: unknown) => {
      throw isPrivilegeError(err) ? new MigrationPrivilegeError(schema, { cause: err }) : err;
    });
  if (applied.length > 0) logger?.info({ schema, applied }, 'migrations applied');
  return applied;
}

/** Creates the schema and its bookkeeping table if need be, then applies what is not recorded there. */
async function applyPending(
  sequelize: Sequelize,
  schema: string,
  migrations: readonly Migration[],
  transaction: Transaction,
): Promise<string[]> {
  await sequelize.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`, { transaction });
  await sequelize.query(
    `CREATE TABLE IF NOT EXISTS "${schema}".schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    {
      transaction,
    },
  );
  const done = (await appliedIds(sequelize, schema, transaction)) ?? new Set<string>();
  const applied: string[] = [];
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
  return applied;
}
