// @store-specific the server's roles and grants (server only)
/**
 * Least privilege in the database, on a Postgres server (DATABASE_URL; PGlite
 * has no roles, so the suite is reported skipped without one): the migrate
 * command runs as the owner role and grants each service's own login role
 * its schema; each service then runs as its role, reads and writes its own
 * tables and nothing of the others', cannot change its schema, and the whole
 * stack still works, a reindex of the memory engine (a table swap) included.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { MigrationPrivilegeError, createScratchDatabase, type ScratchDatabase } from '@skills/common';
import { testPrincipalKeys, silentLogger, until } from '@skills/common/testing';
import { loadCatalogConfig, startCatalogService } from '@skills/catalog-service';
import { loadCollectionsConfig, startCollectionsService } from '@skills/collections-service';
import { loadGatewayConfig, startGateway } from '@skills/gateway';
import { migrateAll } from '../../../src/migrate';
import type { Json } from '../e2e/helpers';

const serverUrl = process.env.DATABASE_URL;
const describeServer = serverUrl ? describe : describe.skip;
const logger = silentLogger('roles-test');
const ADMIN_TOKEN = `adm_${randomBytes(24).toString('hex')}`;

/** Roles are cluster-wide: names of this run only, dropped at the end. */
const suffix = randomBytes(4).toString('hex');
const ROLES = {
  owner: `skills_owner_${suffix}`,
  gateway: `skills_gateway_${suffix}`,
  collections: `skills_collections_${suffix}`,
  catalog: `skills_catalog_${suffix}`,
};

async function onServer(url: string, sql: string[]): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of sql) await client.query(statement);
  } finally {
    await client.end();
  }
}

function as(url: string, role: string): string {
  const u = new URL(url);
  u.username = role;
  u.password = 'unused-on-a-trust-test-server';
  return u.toString();
}

/** What `sql` gives as `role`: 'ok', or the Postgres error code (42501: insufficient privilege). */
async function attempt(db: ScratchDatabase, role: string, sql: string): Promise<string> {
  const client = new Client({ connectionString: as(db.url, role) });
  await client.connect();
  try {
    await client.query(sql);
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  } finally {
    await client.end();
  }
}

describeServer('database roles: one per service, grants on its own schema only', () => {
  let db: ScratchDatabase;

  beforeAll(async () => {
    db = await createScratchDatabase(serverUrl as string, 'skills_roles');
    await onServer(db.url, [
      ...Object.values(ROLES).map((role) => `CREATE ROLE ${role} LOGIN`),
      // the owner hands catalog.search_items to the catalog role (schema-grants.ts)
      `GRANT ${ROLES.catalog} TO ${ROLES.owner}`,
      `ALTER DATABASE ${db.name} OWNER TO ${ROLES.owner}`,
      `REVOKE ALL ON DATABASE ${db.name} FROM PUBLIC`,
      `GRANT CONNECT ON DATABASE ${db.name} TO ${ROLES.gateway}, ${ROLES.collections}, ${ROLES.catalog}`,
      'REVOKE CREATE ON SCHEMA public FROM PUBLIC',
    ]);
  });

  afterAll(async () => {
    await db?.drop();
    await onServer(
      serverUrl as string,
      Object.values(ROLES).map((role) => `DROP ROLE IF EXISTS ${role}`),
    );
  });

  it('keeps a service from migrating its schema: only the owner does', async () => {
    const config = loadGatewayConfig({
      DATABASE_URL: as(db.url, ROLES.gateway),
      ADMIN_TOKEN,
      PRINCIPAL_SIGNING_KEY_FILE: '/unused.pem',
      LOG_LEVEL: 'silent',
    });
    const keysDir = await mkdtemp(join(tmpdir(), 'roles-keys-'));
    try {
      const { signingKeyFile } = await testPrincipalKeys().writeTo(keysDir);
      await expect(
        startGateway({ ...config, principalSigningKeyFile: signingKeyFile, port: 0 }, logger),
      ).rejects.toThrow(MigrationPrivilegeError);
    } finally {
      await rm(keysDir, { recursive: true, force: true });
    }
  });

  it('grants each role its own schema, and with the Postgres event log the two reads that cross schemas, nothing more', async () => {
    await migrateAll(as(db.url, ROLES.owner), logger, { roles: ROLES, eventLog: 'postgres' });
    const cases: Array<[string, string, string]> = [
      [ROLES.gateway, 'SELECT count(*) FROM gateway.api_keys', 'ok'],
      [ROLES.gateway, 'SELECT count(*) FROM collections.items', '42501'],
      [ROLES.gateway, 'SELECT count(*) FROM catalog.search_items', '42501'],
      [ROLES.gateway, "INSERT INTO gateway.schema_migrations (id) VALUES ('999_forged')", '42501'],
      [ROLES.gateway, 'CREATE TABLE gateway.loot (secret text)', '42501'],
      [ROLES.gateway, 'CREATE TABLE public.loot (secret text)', '42501'],
      [ROLES.collections, 'SELECT count(*) FROM collections.items', 'ok'],
      [ROLES.collections, 'SELECT count(*) FROM gateway.api_keys', '42501'],
      [ROLES.collections, 'SELECT count(*) FROM catalog.event_positions', 'ok'],
      [ROLES.collections, 'DELETE FROM catalog.event_positions', '42501'],
      [ROLES.collections, 'SELECT count(*) FROM catalog.dead_letters', '42501'],
      [ROLES.collections, 'DROP TABLE collections.outbox', '42501'],
      [ROLES.catalog, 'SELECT count(*) FROM catalog.dead_letters', 'ok'],
      [ROLES.catalog, 'SELECT count(*) FROM collections.outbox', 'ok'],
      [ROLES.catalog, 'DELETE FROM collections.outbox', '42501'],
      [ROLES.catalog, 'SELECT count(*) FROM collections.items', '42501'],
      [ROLES.catalog, 'SELECT count(*) FROM gateway.accounts', '42501'],
    ];
    const answers = await Promise.all(cases.map(([role, sql]) => attempt(db, role, sql)));
    expect(cases.map(([role, sql], i) => [role.replace(`_${suffix}`, ''), sql, answers[i]])).toEqual(
      cases.map(([role, sql, expected]) => [role.replace(`_${suffix}`, ''), sql, expected]),
    );
  });

  it('takes the cross-schema reads back with Kafka as the event log', async () => {
    await migrateAll(as(db.url, ROLES.owner), logger, { roles: ROLES, eventLog: 'kafka' });
    expect(await attempt(db, ROLES.catalog, 'SELECT count(*) FROM collections.outbox')).toBe('42501');
    expect(await attempt(db, ROLES.collections, 'SELECT count(*) FROM catalog.event_positions')).toBe('42501');
    await migrateAll(as(db.url, ROLES.owner), logger, { roles: ROLES, eventLog: 'postgres' });
  });

  it('runs the whole stack with each service as its own role: writes, search and a reindex that swaps the read model', async () => {
    const keysDir = await mkdtemp(join(tmpdir(), 'roles-keys-'));
    const closers: Array<() => Promise<void>> = [];
    try {
      const keys = await testPrincipalKeys().writeTo(keysDir);
      const token = randomBytes(32).toString('hex');
      const common = {
        PORT: '0',
        LOG_LEVEL: 'silent',
        EVENT_LOG: 'postgres',
        ITEMS_READER_TOKEN: token,
        PRINCIPAL_PUBLIC_KEYS_FILE: keys.publicKeysFile,
      };
      const collections = await startCollectionsService(
        loadCollectionsConfig({ ...common, DATABASE_URL: as(db.url, ROLES.collections) }),
        logger,
      );
      closers.push(() => collections.close());
      const catalog = await startCatalogService(
        loadCatalogConfig({
          ...common,
          DATABASE_URL: as(db.url, ROLES.catalog),
          SEARCH_ENGINE: 'postgres',
          POLL_INTERVAL_MS: '50',
          COLLECTIONS_URL: collections.url,
        }),
        logger,
      );
      closers.push(() => catalog.close());
      const gateway = await startGateway(
        loadGatewayConfig({
          PORT: '0',
          LOG_LEVEL: 'silent',
          DATABASE_URL: as(db.url, ROLES.gateway),
          ADMIN_TOKEN,
          PRINCIPAL_SIGNING_KEY_FILE: keys.signingKeyFile,
          CATALOG_URL: catalog.url,
          COLLECTIONS_URL: collections.url,
        }),
        logger,
      );
      closers.push(() => gateway.close());
      const admin = (method: string, path: string, body?: object) =>
        fetch(`${gateway.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: body && JSON.stringify(body),
        });
      const json = async (answer: Promise<Response>): Promise<Json> => (await answer).json();
      const slug = `roles-${randomUUID().slice(0, 8)}`;
      expect(
        (await admin('PUT', `/admin/v1/skills/${slug}`, { name: 'Least privilege linter', category: 'security' }))
          .status,
      ).toBe(201);
      const account = await json(admin('POST', '/admin/v1/accounts', { email: `${slug}@example.com`, plan: 'pro' }));
      const key = (await json(admin('POST', `/admin/v1/accounts/${account.data.account.id}/api-keys`, {}))).data.apiKey
        .key as string;
      const search = async () => {
        const res = fetch(`${gateway.url}/api/v1/skills?q=privilege`, { headers: { authorization: `Bearer ${key}` } });
        return ((await json(res)).data.skills as Array<{ slug: string }>).map((s) => s.slug);
      };
      await until(async () => (await search()).includes(slug), 'the skill searchable');
      const started = await json(admin('POST', '/admin/v1/reindex'));
      const job = `/admin/v1/reindex/${started.data.job.id}`;
      let status = 'running';
      await until(
        async () => (status = (await json(admin('GET', job))).data.job.status) !== 'running',
        'the reindex to end',
      );
      expect(status).toBe('succeeded');
      expect(await search()).toContain(slug);
    } finally {
      for (const close of closers.reverse()) await close();
      await rm(keysDir, { recursive: true, force: true });
    }
  });
});
