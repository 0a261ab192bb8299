// @store-specific the production topology on the Postgres server (server only)
/**
 * The production topology end to end (standalone/src/distributed): gateway,
 * collections-service and two catalog-service replicas as OS processes with
 * docker-compose.yml's settings, on the local Postgres server, Elasticsearch
 * 9 and Kafka over SASL_SSL/SCRAM, driven black-box through the gateway.
 * Then faults, each while writes stream in: the broker restarted, a replica
 * killed with SIGKILL, Elasticsearch restarted. Every acknowledged write must
 * become searchable within RECOVERY_BOUND_MS of the fault's end, and, while
 * a replica is dead, the survivor must take its partitions.
 *
 * It runs its own servers (servers.cjs: local-servers/ instance "topology",
 * so its restarts never disturb the other live suites) and its own database
 * on the server of DATABASE_URL; skipped at load time without Java, Maven or
 * DATABASE_URL (the same probe as .ci/optional-suites.cjs).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@skills/common';
import { eventually, startReceiver } from '@skills/common/testing';
import { readyInfo } from '../../../src/banner';
import { restartServer, startLocalServers, stopLocalServers } from '../../../src/distributed/local-servers';
import { launchTopology, type DistributedStack } from '../../../src/distributed/topology';
import { Client, FR, TEXTS, newAccount } from '../e2e/helpers';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- shared with .ci/optional-suites.cjs, which is CommonJS
const { topologyServers, TOPOLOGY_SERVERS_ENV } = require('./servers.cjs') as {
  topologyServers(): { present: boolean; detail: string };
  TOPOLOGY_SERVERS_ENV: Record<string, string>;
};

const ROOT = join(__dirname, '..', '..', '..', '..');
const servers = topologyServers();
const describeTopology = servers.present ? describe : describe.skip;
/** After a fault ends, every acknowledged write is searchable within this (measured figures: docs/distributed.md). */
const RECOVERY_BOUND_MS = 60_000;
/** While a replica is dead: Kafka's session timeout (kafkajs default 30 s) before the group rebalances, plus indexing. */
const REBALANCE_BOUND_MS = 60_000;

let stack: DistributedStack;
let dataDir: string | undefined;
let client: Client;
let admin: string;
let key: string;
const figures: Record<string, number> = {};

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
/** a word no sample item and no other phase contains: letters only, so the analyzers keep it whole */
const word = () => `zq${Array.from(randomBytes(8), (b) => String.fromCharCode(97 + (b % 26))).join('')}`;

/** How many active items `token` finds; undefined while the search fails (a replica or node restarting). */
async function found(token: string): Promise<number | undefined> {
  const r = await client
    .call('GET', `/api/v1/skills?q=${token}&limit=1`, { token: key, unchecked: true })
    .catch(() => undefined);
  return r?.status === 200 ? (r.body.data.pagination.total as number) : undefined;
}

/** Polls until `token` finds `count` items; resolves with the milliseconds it took, rejects after `boundMs`. */
async function searchable(token: string, count: number, boundMs: number): Promise<number> {
  const started = Date.now();
  let last: number | undefined;
  while (Date.now() - started < boundMs) {
    last = await found(token);
    if (last === count) return Date.now() - started;
    await sleep(250);
  }
  throw new Error(`"${token}": ${last ?? 'no answer'} of ${count} acknowledged writes searchable after ${boundMs} ms`);
}

/** Writes items named with `token` one after another until stopped; counts only the acknowledged ones. */
function writer(token: string) {
  let acknowledged = 0;
  let refused = 0;
  let stopped = false;
  const done = (async () => {
    for (let n = 0; !stopped; n += 1) {
      const r = await client
        .call('PUT', `/admin/v1/skills/${token}-${n}`, {
          token: admin,
          json: {
            name: `Topology ${token} ${n}`,
            description: `Written during a fault: ${token}.`,
            type: 'skill',
            category: 'devops',
          },
          unchecked: true,
        })
        .catch(() => undefined);
      if (r && (r.status === 200 || r.status === 201)) acknowledged += 1;
      else refused += 1;
      await sleep(50);
    }
  })();
  return {
    acknowledged: () => acknowledged,
    async stop() {
      stopped = true;
      await done;
      return { acknowledged, refused };
    },
  };
}

describeTopology('the distributed topology', () => {
  beforeAll(async () => {
    // the scripts of local-servers/ inherit this process's environment
    Object.assign(process.env, TOPOLOGY_SERVERS_ENV);
    const logger = createLogger({ service: 'topology-test', level: 'warn' });
    const started = Date.now();
    dataDir = await mkdtemp(join(tmpdir(), 'skills-topology-'));
    stack = await launchTopology({
      root: ROOT,
      servers: await startLocalServers(ROOT),
      postgresServerUrl: process.env.DATABASE_URL ?? '',
      dataDir,
      port: 0,
      logLevel: 'warn',
      catalogReplicas: 2,
      // the suite writes hundreds of items a minute with one admin token and a few keys
      // and its webhook receiver listens on 127.0.0.1 (docs/governance.md: private targets only with this setting)
      extraEnv: {
        gateway: {
          RATE_LIMIT_PRO_PER_MINUTE: '100000',
          RATE_LIMIT_TEAM_PER_MINUTE: '100000',
          AUTH_FAILURES_PER_MINUTE: '100000',
        },
        'collections-service': { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      },
      output: process.stderr,
      logger,
    });
    figures.startMs = Date.now() - started;
    const info = readyInfo(stack);
    client = new Client(info.url);
    admin = info.adminToken;
    key = info.apiKey;
  }, 600_000);

  afterAll(async () => {
    console.log(`distributed topology figures (ms): ${JSON.stringify(figures)}`);
    await stack?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    await stopLocalServers(ROOT);
  }, 180_000);

  describe('through the gateway', () => {
    it('answers the contract: the seeded catalog, pagination, a bad limit, an unknown collection', async () => {
      const page = await client.call('GET', '/api/v1/skills?q=docker&limit=5', { token: key });
      expect(page.status).toBe(200);
      expect(page.body.data.skills.length).toBeGreaterThan(0);
      expect(page.body.data.pagination).toMatchObject({ page: 1, limit: 5, hasMore: expect.any(Boolean) });
      expect(page.headers.get('x-request-id')).toBeTruthy();
      const bad = await client.call('GET', '/api/v1/skills?limit=51', { token: key, headers: FR });
      expect(bad.status).toBe(400);
      const missing = await client.call('GET', '/api/v1/me/collections/00000000-0000-4000-8000-000000000000', {
        token: key,
      });
      expect(missing).toMatchObject({ status: 404, body: { error: TEXTS.collectionNotFound.en } });
    });

    it('keeps the access rules: a bad key, the free plan, another account, a non-member, a viewer', async () => {
      expect(
        await client.call('GET', '/api/v1/skills', { token: 'sk_live_notakeyatallnotakeyatallnotak' }),
      ).toMatchObject({
        status: 401,
        body: { error: TEXTS.invalidKey.en },
      });
      const free = await newAccount({ client, admin }, 'free');
      expect(await client.call('GET', '/api/v1/skills', { token: free.key })).toMatchObject({
        status: 403,
        body: { error: TEXTS.planWithoutApi.en },
      });
      const owner = await newAccount({ client, admin }, 'team');
      const other = await newAccount({ client, admin }, 'team');
      const viewer = await newAccount({ client, admin }, 'team');
      const mine = await client.call('POST', '/api/v1/me/collections', { token: owner.key, json: { name: 'Mine' } });
      expect(mine.status).toBe(201);
      expect(
        await client.call('GET', `/api/v1/me/collections/${mine.body.data.collection.id}`, { token: other.key }),
      ).toMatchObject({ status: 404 });
      const ws = await client.call('POST', '/admin/v1/workspaces', {
        token: admin,
        json: { name: 'W', ownerAccountId: owner.id },
      });
      const workspace = ws.body.data.workspace.id as string;
      await client.call('PUT', `/admin/v1/workspaces/${workspace}/members/${viewer.id}`, {
        token: admin,
        json: { role: 'viewer' },
      });
      const path = `/api/v1/workspaces/${workspace}/collections`;
      expect(await client.call('GET', path, { token: other.key })).toMatchObject({
        status: 403,
        body: { error: TEXTS.noAccess.en },
      });
      expect(await client.call('GET', path, { token: viewer.key })).toMatchObject({ status: 200 });
      expect(await client.call('POST', path, { token: viewer.key, json: { name: 'T' } })).toMatchObject({
        status: 403,
        body: { error: TEXTS.roleTooLow.en },
      });
      expect(await client.call('POST', path, { token: owner.key, json: { name: 'T' } })).toMatchObject({ status: 201 });
    });

    it('makes a write searchable through Kafka and Elasticsearch', async () => {
      const token = word();
      const put = await client.call('PUT', `/admin/v1/skills/${token}`, {
        token: admin,
        json: { name: `Fresh ${token}`, description: 'A new item.', type: 'skill', category: 'devops' },
      });
      expect(put.status).toBe(201);
      figures.writeSearchableMs = await searchable(token, 1, 15_000);
    });
  });

  it('signs and delivers a webhook when the verdict of a pinned release turns malicious', async () => {
    const receiver = await startReceiver();
    try {
      const slug = word();
      const owner = await newAccount({ client, admin }, 'team');
      const ws = await client.call('POST', '/admin/v1/workspaces', {
        token: admin,
        json: { name: 'Governed', ownerAccountId: owner.id },
      });
      const workspace = ws.body.data.workspace.id as string;
      expect(
        await client.call('PUT', `/admin/v1/skills/${slug}`, {
          token: admin,
          json: { name: `Pinned ${slug}`, description: 'Pinned by a team.', type: 'skill', category: 'devops' },
        }),
      ).toMatchObject({ status: 201 });
      const release = {
        version: '1.0.0',
        digest: `sha256:${'a'.repeat(64)}`,
        source: { repository: 'https://example.com/pinned', ref: 'v1.0.0' },
      };
      expect(
        await client.call('POST', `/admin/v1/skills/${slug}/versions`, { token: admin, json: release }),
      ).toMatchObject({ status: 201 });
      const collection = await client.call('POST', `/api/v1/workspaces/${workspace}/collections`, {
        token: owner.key,
        json: { name: 'Pinned' },
      });
      const collectionPath = `/api/v1/workspaces/${workspace}/collections/${collection.body.data.collection.id}`;
      expect(await client.call('PATCH', collectionPath, { token: owner.key, json: { skillSlug: slug } })).toMatchObject(
        { status: 200 },
      );
      const hook = await client.call('POST', `/api/v1/workspaces/${workspace}/webhooks`, {
        token: owner.key,
        json: { url: receiver.url, events: ['release.verdict_changed'] },
      });
      expect(hook.status).toBe(201);
      receiver.secret = hook.body.data.secret as string;

      const scanner = await client.call('POST', '/admin/v1/scanners', {
        token: admin,
        json: { name: `topology-${slug}` },
      });
      const verdict = { verdict: 'malicious', summary: 'Exfiltrates credentials', reportUrl: null };
      expect(
        await client.call('POST', `/api/v1/skills/${slug}/versions/1.0.0/verdicts`, {
          token: scanner.body.data.token,
          json: verdict,
        }),
      ).toMatchObject({
        status: 201,
      });

      const delivered = await eventually(
        () => {
          const found = [...receiver.handled.values()].find((event) => event.type === 'release.verdict_changed');
          if (!found) throw new Error(`no release.verdict_changed among ${receiver.received.length} requests`);
          return found;
        },
        'a signed release.verdict_changed delivery',
        60_000,
      );
      expect(delivered.data).toMatchObject({ slug, version: '1.0.0', from: 'unscanned', to: 'malicious' });
      expect(receiver.received.every((request) => request.verified)).toBe(true);
    } finally {
      await receiver.close();
    }
  }, 90_000);

  describe('faults while writes stream in', () => {
    it('loses nothing acknowledged when the Kafka broker restarts', async () => {
      const token = word();
      const writes = writer(token);
      await sleep(1_500);
      await restartServer(ROOT, 'kafka');
      const recovered = Date.now();
      await sleep(1_500);
      const { acknowledged } = await writes.stop();
      expect(acknowledged).toBeGreaterThan(10);
      await searchable(token, acknowledged, RECOVERY_BOUND_MS);
      figures.kafkaRecoveryMs = Date.now() - recovered;
    }, 300_000);

    it('rebalances to the surviving replica when one is killed mid-batch, and loses nothing', async () => {
      const token = word();
      const writes = writer(token);
      await sleep(1_000);
      const victim = stack.replicas()[0];
      victim.kill('SIGKILL');
      await victim.exited;
      const killed = Date.now();
      // Writes made while the replica is dead: they reach partitions it owned, which only a rebalance gives the survivor.
      await sleep(3_000);
      const { acknowledged } = await writes.stop();
      await searchable(token, acknowledged, REBALANCE_BOUND_MS);
      figures.searchableWithOneReplicaDeadMs = Date.now() - killed;
      expect(victim.running()).toBe(false);
      expect(stack.replicas()[0]).toBe(victim);

      await stack.restartReplica(0);
      const after = word();
      const more = writer(after);
      await sleep(2_000);
      const second = await more.stop();
      figures.afterReplicaRestartMs = await searchable(after, second.acknowledged, RECOVERY_BOUND_MS);
    }, 300_000);

    it('loses nothing acknowledged when Elasticsearch restarts', async () => {
      const token = word();
      const writes = writer(token);
      await sleep(1_500);
      await restartServer(ROOT, 'elasticsearch');
      const recovered = Date.now();
      await sleep(1_500);
      const { acknowledged } = await writes.stop();
      expect(acknowledged).toBeGreaterThan(10);
      await searchable(token, acknowledged, RECOVERY_BOUND_MS);
      figures.elasticsearchRecoveryMs = Date.now() - recovered;
    }, 400_000);
  });
});
