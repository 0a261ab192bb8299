/**
 * Faults of real processes on a real Postgres: a service that is down, and an
 * indexer killed in the middle of its work.
 */
import { Client as PgClient } from 'pg';

import { ADMIN_TOKEN, catalogLines, importCatalog, newKey, startTopology, type Topology } from './processes';
import { eventually } from '@skills/common/testing';

let topology: Topology;
let key: string;

beforeAll(async () => {
  // debug: the indexer's per-batch log line tells the test when to kill it
  topology = await startTopology({ logLevel: 'debug' });
  ({ key } = await newKey(topology.client));
}, 120_000);

afterAll(async () => {
  await topology?.dispose();
});

/** One call that must be answered within a second, or it fails with a timeout. */
async function quickly(path: string, lang = 'fr'): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${topology.client.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${key}`, 'accept-language': lang },
    signal: AbortSignal.timeout(1_000),
  });
  return { status: res.status, body: await res.json() };
}

describe('a service that is down', () => {
  // While down, a search nobody asked yet: the gateway's answer cache may serve the one just asked for 50 ms more.
  it.each([
    ['catalog', '/api/v1/skills?q=lint', '/api/v1/skills?q=docker'],
    ['collections', '/api/v1/me/collections', '/api/v1/me/collections'],
  ] as const)(
    '%s-service: the gateway answers 503 with a localised error within a second, and recovers once it is back',
    async (which, path, whileDown) => {
      const proc = which === 'catalog' ? topology.catalog : topology.collections;
      expect((await quickly(path)).status).toBe(200);
      await proc.stop('SIGKILL');
      expect(await quickly(whileDown, 'fr')).toEqual({
        status: 503,
        body: { error: 'Le service est temporairement indisponible' },
      });
      expect(await quickly(whileDown, 'en')).toEqual({
        status: 503,
        body: { error: 'The service is temporarily unavailable' },
      });
      // the live check, on the monitoring port (the public /readyz answers a state up to 5 s old)
      const ready = await fetch(`http://127.0.0.1:${topology.gateway.metricsPort}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { error: string }).error).toContain(proc.name);

      await topology.restart(proc);
      // Nothing restarted the gateway: its connection pool finds the service again by itself.
      await eventually(async () => ((await quickly(path)).status === 200 ? true : undefined), 'recovery', 10_000);
      expect((await fetch(`http://127.0.0.1:${topology.gateway.metricsPort}/readyz`)).status).toBe(200);
    },
  );
});

interface Row {
  id: string;
  status: string;
  version: number;
}

async function rows(pg: PgClient, table: string): Promise<Row[]> {
  const result = await pg.query<Row>(
    `SELECT id::text AS id, status, version FROM ${table} WHERE visibility = 'public' ORDER BY id`,
  );
  return result.rows;
}

/** The event log reads 2,000 events a batch: a backlog of several batches leaves work after the first. */
const ITEMS = 6_000;
const UPDATED = 2_000;
const DELETED = 20;

describe('the indexer killed mid-batch', () => {
  it('converges to the system of record once it runs again: every item, state and version', async () => {
    const pg = new PgClient({ connectionString: topology.databaseUrl });
    await pg.connect();
    try {
      // The indexer is down while items are created, updated and deleted: all of it waits in the outbox.
      await topology.catalog.stop('SIGKILL');
      await importCatalog(topology.client, catalogLines('conv', ITEMS));
      await importCatalog(topology.client, catalogLines('conv', UPDATED).replaceAll('tool', 'tool v2'));
      for (let i = 0; i < DELETED; i++) {
        const res = await topology.client.call('DELETE', `/admin/v1/skills/conv-${ITEMS - 10 - i}`, {
          token: ADMIN_TOKEN,
        });
        expect(res.status).toBe(200);
      }
      const truth = await rows(pg, 'collections.items');
      expect(truth.filter((r) => r.status === 'deleted')).toHaveLength(DELETED);
      expect(truth.filter((r) => r.status === 'active' && r.version === 2)).toHaveLength(UPDATED);

      // Start it, and kill it the moment it reports its first applied batch: that batch's
      // position may not be saved yet, and the next batch is under way.
      const catalog = topology.catalog;
      let killed: Promise<number | null> | undefined;
      const firstBatch = catalog
        .nextLine((l) => l.includes('"msg":"events indexed"'), 60_000, '"events indexed" line')
        .then((line) => {
          killed = catalog.stop('SIGKILL');
          return line;
        });
      await catalog.start(async () => killed !== undefined);
      await firstBatch;
      await killed;
      // Killed mid-work: some states reached the read model, not all of them.
      const atKill = await rows(pg, 'catalog.search_items');
      expect(atKill.length).toBeGreaterThan(0);
      expect(atKill).not.toEqual(truth);

      await topology.restart(catalog);
      await eventually(
        async () => {
          const indexed = await rows(pg, 'catalog.search_items');
          return JSON.stringify(indexed) === JSON.stringify(truth) ? true : undefined;
        },
        'the search table to match collections.items',
        60_000,
      );
      // The search API agrees: a deleted item is gone, an updated one shows its new name, an untouched one its old.
      const search = async (q: string) => {
        const res = await topology.client.call('GET', `/api/v1/skills?q=${encodeURIComponent(q)}&limit=5`, {
          token: key,
        });
        expect(res.status).toBe(200);
        return res.body.data.skills as Array<{ slug: string; name: string }>;
      };
      expect((await search(`conv tool ${ITEMS - 10}`)).map((s) => s.slug)).not.toContain(`conv-${ITEMS - 10}`);
      expect((await search('conv tool v2 7'))[0]).toMatchObject({ slug: 'conv-7', name: 'conv tool v2 7' });
      expect((await search(`conv tool ${ITEMS - 1}`))[0]).toMatchObject({
        slug: `conv-${ITEMS - 1}`,
        name: `conv tool ${ITEMS - 1}`,
      });
    } finally {
      await pg.end();
    }
  }, 150_000);
});
