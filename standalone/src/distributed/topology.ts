/**
 * The production topology on one machine, without Docker: compose's order
 * (principal keys, migrate, collections-service, catalog-service replicas,
 * gateway) as separate OS processes with compose's environments
 * (topology-env.ts), on a database and Elasticsearch alias of this run,
 * then the demo data `npm start` makes. `close()` stops the processes and
 * removes the run's database, roles and indices; the servers keep running.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { Client } from 'pg';
import { createScratchDatabase, privateDirectory, type Logger } from '@skills/common';
import { resolveAdminToken } from '../admin-token';
import { closeAll, type RunningStack } from '../launcher';
import { SkillsClient } from '@skills/client';
import { BUNDLED_SAMPLE, type SampleData } from '../sample-data';
import { seedDemo } from '../seed';
import { startBalancer, type Balancer } from './balancer';
import type { LocalServers } from './local-servers';
import { ENTRY_POINTS, readTopologyEnvironments, type RoleNames, type RunService } from './topology-env';
import { runOnce, startServiceProcess, waitHealthy, type ServiceProcess } from './service-process';

export interface TopologyOptions {
  /** repository root: entry points, docker-compose.yml and the sample catalog */
  root: string;
  servers: LocalServers;
  /** the compose file whose environments the services run with; the repository's docker-compose.yml unless a test names another */
  composeFile?: string;
  /** the local Postgres server, as a superuser (the run's database is created there) */
  postgresServerUrl: string;
  /** admin token and demo ids of this launcher, kept between runs */
  dataDir: string;
  port: number;
  logLevel: string;
  adminToken?: string;
  catalogReplicas: number;
  /** variables a run adds on top of compose's, per service (a test's raised rate limits); compose's own win nowhere */
  extraEnv?: Partial<Record<RunService, Record<string, string>>>;
  /** where the services' output goes */
  output: Writable;
  logger: Logger;
}

export interface DistributedStack extends RunningStack {
  databaseName: string;
  elasticsearchIndex: string;
  /** the replica processes as they are now (a restarted one is a new process) */
  replicas(): readonly ServiceProcess[];
  /** starts replica `index` again after it died, and waits until it is healthy */
  restartReplica(index: number): Promise<ServiceProcess>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

async function onServer(url: string, statements: string[]): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * What deploy/docker/postgres/roles.sh does on compose's first start, for the
 * run's database with role names of this run only (roles are cluster-wide and
 * runs may overlap). Passwords are not set: the local server trusts loopback.
 */
async function createRoles(databaseUrl: string, database: string, roles: RoleNames): Promise<void> {
  await onServer(databaseUrl, [
    ...Object.values(roles).map((role) => `CREATE ROLE ${role} LOGIN`),
    `GRANT ${roles.catalog} TO ${roles.owner}`,
    `ALTER DATABASE ${database} OWNER TO ${roles.owner}`,
    `REVOKE ALL ON DATABASE ${database} FROM PUBLIC`,
    `GRANT CONNECT ON DATABASE ${database} TO ${roles.gateway}, ${roles.collections}, ${roles.catalog}`,
    'REVOKE CREATE ON SCHEMA public FROM PUBLIC',
  ]);
}

/** The run's indices: the alias's `<alias>-v<epoch>` indices, listed then deleted by name (wildcard deletes are refused by default). */
async function deleteIndices(elasticsearchUrl: string, alias: string): Promise<void> {
  const listed = await fetch(`${elasticsearchUrl}/_cat/indices/${alias}*?format=json&h=index`);
  if (!listed.ok) return;
  for (const { index } of (await listed.json()) as Array<{ index: string }>) {
    await fetch(`${elasticsearchUrl}/${encodeURIComponent(index)}`, { method: 'DELETE' });
  }
}

export async function launchTopology(options: TopologyOptions): Promise<DistributedStack> {
  const started = Date.now();
  const { root, servers, logger } = options;
  await privateDirectory(options.dataDir);
  const adminToken = await resolveAdminToken(options.dataDir, options.adminToken);
  const run = randomBytes(4).toString('hex');
  const cleanup: Array<() => Promise<void>> = [];
  const close = () => closeAll(cleanup);
  try {
    const database = await createScratchDatabase(options.postgresServerUrl, 'skills_topology');
    const roles: RoleNames = {
      owner: `skills_owner_${run}`,
      gateway: `skills_gateway_${run}`,
      collections: `skills_collections_${run}`,
      catalog: `skills_catalog_${run}`,
    };
    cleanup.unshift(async () => {
      await database.drop();
      await onServer(
        options.postgresServerUrl,
        Object.values(roles).map((role) => `DROP ROLE IF EXISTS ${role}`),
      );
    });
    await createRoles(database.url, database.name, roles);

    // compose's two principal key volumes: only the gateway reads the private one
    const keys = join(options.dataDir, `run-${run}`);
    const principalSigningDir = join(keys, 'principal-signing');
    const principalPublicDir = join(keys, 'principal-public');
    await privateDirectory(principalSigningDir);
    await mkdir(principalPublicDir, { recursive: true });
    cleanup.unshift(() => rm(keys, { recursive: true, force: true }));

    const elasticsearchIndex = `skills-topology-${run}`;
    cleanup.unshift(() => deleteIndices(servers.elasticsearchUrl, elasticsearchIndex));
    // port 0: a free one, as the services' own config would pick
    const ports = {
      gateway: options.port || (await freePort()),
      gatewayMetrics: await freePort(),
      collections: await freePort(),
      catalog: await freePort(),
    };
    const envs = readTopologyEnvironments(options.composeFile ?? join(root, 'docker-compose.yml'), {
      databaseUrl: database.url,
      roles,
      elasticsearchUrl: servers.elasticsearchUrl,
      elasticsearchIndex,
      kafka: servers.kafka,
      principalSigningDir,
      principalPublicDir,
      adminToken: adminToken.token,
      itemsReaderToken: randomBytes(32).toString('base64url'),
      logLevel: options.logLevel,
      ports,
    });
    const spec = (
      service: RunService,
      name: string = service,
      extra: Record<string, string> = {},
      args: string[] = [],
    ) => ({
      name,
      root,
      entryPoint: ENTRY_POINTS[service],
      args,
      env: { ...options.extraEnv?.[service], ...envs[service], ...extra },
      output: options.output,
    });

    await runOnce(spec('principal-keys', 'principal-keys', {}, ['init']));
    await runOnce(spec('migrate'));
    logger.info({ ms: Date.now() - started, database: database.name }, 'database migrated');

    const running: ServiceProcess[] = [];
    let balancer: Balancer | undefined;
    // Reverse start order, the gateway first; the balancer last, so no search in flight loses its replicas early.
    cleanup.unshift(() =>
      closeAll([...[...running].reverse().map((p) => () => p.stop()), async () => balancer?.close()]),
    );
    const collections = startServiceProcess(spec('collections-service'));
    running.push(collections);
    await waitHealthy(collections, ports.collections);

    const replicaPorts: number[] = [];
    const replicas: ServiceProcess[] = [];
    const startReplica = async (index: number) => {
      replicaPorts[index] ??= await freePort();
      const replica = startServiceProcess(
        spec('catalog-service', `catalog-service-${index + 1}`, { PORT: String(replicaPorts[index]) }),
      );
      replicas[index] = replica;
      running.push(replica);
      await waitHealthy(replica, replicaPorts[index]);
      return replica;
    };
    // One after the other, as a rolling start: the first replica creates the index, the next finds it.
    for (let i = 0; i < options.catalogReplicas; i += 1) await startReplica(i);
    balancer = await startBalancer(ports.catalog, () => replicaPorts);

    const gateway = startServiceProcess(spec('gateway'));
    running.push(gateway);
    await waitHealthy(gateway, ports.gateway);
    logger.info({ ms: Date.now() - started }, 'services started');

    const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
    const demo = await seedDemo({
      gatewayUrl,
      adminToken: adminToken.token,
      dataDir: options.dataDir,
      sample: BUNDLED_SAMPLE,
      logger,
    });
    // The sample goes through the outbox, Kafka and the indexers: READY promises a searchable catalog.
    if (demo.imported !== undefined)
      await waitSearchable(
        new SkillsClient({ baseUrl: gatewayUrl, apiKey: demo.apiKey }),
        await searchableItemsIn(BUNDLED_SAMPLE),
        logger,
      );
    return {
      gatewayUrl,
      metricsUrl: `http://127.0.0.1:${ports.gatewayMetrics}`,
      adminToken,
      demo,
      database: 'external',
      topology: `distributed: ${options.catalogReplicas} catalog-service replicas, Elasticsearch ${servers.elasticsearchUrl}, Kafka SASL_SSL ${servers.kafka.saslBrokers}, Postgres database ${database.name}`,
      startupMs: Date.now() - started,
      databaseName: database.name,
      elasticsearchIndex,
      replicas: () => [...replicas],
      restartReplica: (index) => startReplica(index),
      close,
    };
  } catch (err) {
    await close().catch((closeErr: unknown) => logger.warn({ err: closeErr }, 'cleanup after failed start'));
    throw err;
  }
}

/** Active items of an NDJSON catalog: what a browse finds once all of it is indexed. */
/** Active items of the sample that search finds with `trust=any`: all but the blocked (malicious) ones. */
async function searchableItemsIn(sample: SampleData): Promise<number> {
  const lines = (await readFile(sample.catalogFile, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  const trust = JSON.parse(await readFile(sample.trustFile, 'utf8')) as {
    verdicts: Array<{ slug: string; verdict: string }>;
  };
  const blocked = new Set(trust.verdicts.filter((v) => v.verdict === 'malicious').map((v) => v.slug));
  return lines
    .map((line) => JSON.parse(line) as { slug: string; status?: string })
    .filter((i) => i.status === 'active' && !blocked.has(i.slug)).length;
}

/** Polls a browse of the catalog until it finds `expected` items (2 minutes at most). */
async function waitSearchable(client: SkillsClient, expected: number, logger: Logger): Promise<void> {
  const deadline = Date.now() + 120_000;
  let found = 0;
  while (Date.now() < deadline) {
    found = (await client.searchSkills({ limit: 1, trust: 'any' })).pagination.total;
    if (found >= expected) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  logger.warn({ found, expected }, 'the sample catalog is not all searchable yet');
}
