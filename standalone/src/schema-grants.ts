/**
 * Least privilege in the database: each service logs in as a role of its
 * own that may read and write the tables of its own schema and nothing else;
 * the migrate command (the owner role) applies the migrations and then these
 * grants, on every run, so tables added by a migration are covered at once.
 * Roles are created by whoever runs the database (compose's init script,
 * CloudNativePG's managed roles); docs/deploy.md "Database roles".
 */
import type { Sequelize } from 'sequelize';
import type { Logger } from '@skills/common';

/** The login role of each service (GATEWAY_DB_ROLE, COLLECTIONS_DB_ROLE, CATALOG_DB_ROLE); a service left out gets no grant. */
export interface ServiceRoles {
  gateway?: string;
  collections?: string;
  catalog?: string;
}

/** A role name as Postgres folds an unquoted one: what the migrate command accepts. */
export const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function quoted(role: string): string {
  if (!ROLE_NAME.test(role)) throw new Error(`not a role name: ${role}`);
  return `"${role}"`;
}

/** Read and write the tables of `schema`, never its migration record. */
function ownSchema(schema: string, role: string): string[] {
  return [
    `GRANT USAGE ON SCHEMA ${schema} TO ${role}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`,
    `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`,
    `REVOKE INSERT, UPDATE, DELETE ON ${schema}.schema_migrations FROM ${role}`,
  ];
}

/** One table of another service's schema, read only; revoked again when not wanted. */
function readOf(schema: string, table: string, role: string, wanted: boolean): string[] {
  return wanted
    ? [`GRANT USAGE ON SCHEMA ${schema} TO ${role}`, `GRANT SELECT ON ${schema}.${table} TO ${role}`]
    : [`REVOKE ALL ON ${schema}.${table} FROM ${role}`, `REVOKE ALL ON SCHEMA ${schema} FROM ${role}`];
}

/**
 * The statements, in order. With the Postgres event log (EVENT_LOG=postgres)
 * two reads cross schemas, and only those: catalog-service reads
 * collections.outbox (its event log), collections-service reads
 * catalog.event_positions (to prune what every reader has passed). A reindex
 * of the memory engine rebuilds catalog.search_items by DDL (a new table,
 * then a swap), so catalog-service may create tables in its schema and owns
 * that one; the owner role must be a member of the catalog role to hand it over.
 */
export function grantStatements(roles: ServiceRoles, eventLog: 'postgres' | 'kafka'): string[] {
  const out: string[] = [];
  const viaOutbox = eventLog === 'postgres';
  if (roles.gateway) out.push(...ownSchema('gateway', quoted(roles.gateway)));
  if (roles.collections) {
    const role = quoted(roles.collections);
    out.push(...ownSchema('collections', role), ...readOf('catalog', 'event_positions', role, viaOutbox));
  }
  if (roles.catalog) {
    const role = quoted(roles.catalog);
    out.push(
      ...ownSchema('catalog', role),
      `GRANT CREATE ON SCHEMA catalog TO ${role}`,
      `ALTER TABLE catalog.search_items OWNER TO ${role}`,
      ...readOf('collections', 'outbox', role, viaOutbox),
    );
  }
  return out;
}

/** Applies grantStatements in one transaction: all of them, or none. */
export async function grantServiceRoles(
  sequelize: Sequelize,
  roles: ServiceRoles,
  eventLog: 'postgres' | 'kafka',
  logger: Logger,
): Promise<void> {
  const statements = grantStatements(roles, eventLog);
  if (statements.length === 0) return;
  await sequelize.transaction(async (transaction) => {
    for (const sql of statements) await sequelize.query(sql, { transaction });
  });
  logger.info({ roles, eventLog }, 'service roles granted their schemas');
}
