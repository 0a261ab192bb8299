/**
 * Faults of real processes on a real Postgres: a service that is down, and an
 * indexer killed in the middle of its work.
 */
import { Client as PgClient } from 'pg';
import { eventually } from '../e2e/helpers';
import { ADMIN_TOKEN, catalogLines, importCatalog, newKey, startTopology, type Topology } from './processes';

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
  ] as const)('%s-service: the gateway answers 503 with a localised error within a second, and recovers once it is back', async (which, path, whileDown) => {
    const proc = which === 'catalog' ? topology.catalog : topology.collections;
    expect((await quickly(path)).status).toBe(200);
    await proc.stop('SIGKILL');
    expect(await quickly(whileDown, 'fr')).toEqual({ status: 503, body: { error: 'Le service est temporairement indisponible' } });
    expect(await quickly(whileDown, 'en')).toEqual({ status: 503, body: { error: 'The service is temporarily unavailable' } });
    // the live check, on the monitoring port (the public /readyz answers a state up to 5 s old)
    const ready = await fetch(`http://127.0.0.1:${topology.gateway.metricsPort}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { error: string }).error).toContain(proc.name);

    await topology.restart(proc);
    // Nothing restarted the gateway: its connection pool finds the service again by itself.
    await eventually(async () => ((await quickly(path)).status === 200 ? true : undefined), 10_000, 'recovery');
    expect((await fetch(`http://127.0.0.1:${topology.gateway.metricsPort}/readyz`)).status).toBe(200);
  });
});

interface Row {
  id: string;
  status: string;
  version: number;
}

async function rows(pg: PgClient, table: string): Promise<Row[]> {
  const result = await pg.query<Row>(`SELECT id::text AS id, status, version FROM ${table} WHERE visibility = 'public' ORDER BY id`);
  return result.rows;
}

describe('the indexer killed mid-batch', () => {
  it('converges to the system of record once it runs again: every item, state and version', async () => {
    const pg = new PgClient({ connectionString: topology.databaseUrl });
    await pg.connect();
    try {
      // The indexer is down while 600 items are created, updated and deleted: all of it waits in the outbox.
      await topology.catalog.stop('SIGKILL');
      await importCatalog(topology.client, catalogLines('conv', 600));
      await importCatalog(topology.client, catalogLines('conv', 200).replaceAll('tool', 'tool v2'));
      for (let i = 0; i < 20; i++) {
        const res = await topology.client.call('DELETE', `/admin/v1/skills/conv-${590 - i}`, { token: ADMIN_TOKEN });
        expect(res.status).toBe(200);
      }

      // Start it, and kill it the moment it reports its first applied batch: the
      // position of that batch may not be saved yet and the next batch is under way.
      const indexedLines = () => topology.catalog.lines.filter((l) => l.includes('"msg":"events indexed"')).length;
      const seen = indexedLines();
      await topology.restart(topology.catalog);
      const deadline = Date.now() + 30_000;
      while (indexedLines() === seen && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 1));
      await topology.catalog.stop('SIGKILL');

      await topology.restart(topology.catalog);
      const truth = await rows(pg, 'collections.items');
      await eventually(async () => {
        const indexed = await rows(pg, 'catalog.search_items');
        return JSON.stringify(indexed) === JSON.stringify(truth) ? true : undefined;
      }, 60_000, 'the search table to match collections.items');
      expect(truth.filter((r) => r.status === 'deleted')).toHaveLength(20);
      expect(truth.filter((r) => r.version === 2).length).toBeGreaterThanOrEqual(180);
      // The search API agrees: a deleted item is gone, an updated one shows its new name.
      const gone = await topology.client.call('GET', '/api/v1/skills?q=conv-590', { token: key });
      expect(gone.body.data.skills.map((s: { slug: string }) => s.slug)).not.toContain('conv-590');
    } finally {
      await pg.end();
    }
  }, 150_000);
});
