// @store-specific the import's query plans (EXPLAIN)
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PRINCIPAL_HEADER, STREAMED_BODY } from '@skills/common';
import { verdictWatch } from '../../src/webhooks/verdict-watch';
import { ADMIN, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';

const NDJSON = 'application/x-ndjson';

function line(slug: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    slug,
    name: `Item ${slug}`,
    description: `About ${slug}`,
    type: 'skill',
    category: 'bulk',
    ...extra,
  });
}

describe('POST /admin/v1/skills:import', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  const post = (body: string | Buffer, type = NDJSON) =>
    h.call(ADMIN, 'post', '/admin/v1/skills:import').set('Content-Type', type).send(body);
  const count = async (sql: string, bind: unknown[] = []) => Number((await h.rows<{ n: string }>(sql, bind))[0]!.n);

  it('imports every line in one request, with one event per item carrying its version', async () => {
    const body = Array.from({ length: 10_000 }, (_, i) => line(`bulk-${i}`, { tags: ['t'] })).join('\n') + '\n';
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { imported: 10_000 } });
    expect(
      await count(
        "SELECT count(*) AS n FROM collections.items WHERE slug LIKE 'bulk-%' AND version = 1 AND status = 'active'",
      ),
    ).toBe(10_000);
    const events = await h.rows<{ id: string; event_id: string; key: string; item_id: string }>(
      "SELECT id::text AS id, event->>'eventId' AS event_id, key, event->>'itemId' AS item_id FROM collections.outbox",
    );
    expect(events).toHaveLength(10_000);
    expect(events.every((e) => e.id === e.event_id && e.key === e.item_id)).toBe(true);

    const again = await post(body);
    expect(again.body).toEqual({ data: { imported: 10_000 } });
    expect(await count("SELECT count(*) AS n FROM collections.items WHERE slug LIKE 'bulk-%' AND version = 2")).toBe(
      10_000,
    );
    expect(await count("SELECT count(*) AS n FROM collections.outbox WHERE (event->>'version')::int = 2")).toBe(10_000);
  }, 120_000);

  it('refreshes the planner statistics of the tables a bulk import grew, so keyset reads stay index scans', async () => {
    // Autovacuum may be off or behind: never analyzed, a table bulk-loaded from empty reads as a few
    // hundred rows, and the changes feed's keyset read becomes a scan of every later row and a sort.
    const estimate = async (table: string) =>
      Number(
        (
          await h.rows<{ n: string }>('SELECT reltuples::bigint AS n FROM pg_class WHERE oid = $1::regclass', [table])
        )[0]!.n,
      );
    const items = await count('SELECT count(*) AS n FROM collections.items');
    const events = await count('SELECT count(*) AS n FROM collections.outbox');
    const body = Array.from({ length: 6_000 }, (_, i) => line(`planned-${i}`)).join('\n');
    expect((await post(body)).status).toBe(200);
    const counted = { 'collections.items': items + 6_000, 'collections.outbox': events + 6_000 };
    // within 5 % of the true count (ANALYZE samples; these tables are small enough to be read whole)
    const planned = async () =>
      (
        await Promise.all(
          Object.entries(counted).map(async ([table, n]) => Math.abs((await estimate(table)) - n) <= n * 0.05),
        )
      ).every(Boolean);
    const deadline = Date.now() + 10_000;
    while (!(await planned()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await planned()).toBe(true);
    // The readers of the outbox (the verdict watch here, catalog-service's indexer alike) filter on its
    // topic too: without statistics on it, a read from the start was planned as a bitmap scan of every
    // later row and a sort (53 ms a read of 100 at 64k rows on the server; a seq scan for the indexer's 2,000).
    const [{ 'QUERY PLAN': plan }] = await h.rows<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (FORMAT JSON) ${verdictWatch.select}`,
      ['0', '0', 100],
    );
    expect(JSON.stringify(plan)).toMatch(/"Index Scan"/);
    expect(JSON.stringify(plan)).not.toMatch(/"Sort"|"Seq Scan"|"Bitmap Heap Scan"/);
  }, 60_000);

  it('imports registry details, keeps the downloads of a line without them, and names a bad URL', async () => {
    const details = {
      publisher: 'Acme',
      version: '2.0.0',
      license: 'MIT',
      repositoryUrl: 'https://github.com/acme/a',
      homepageUrl: null,
      downloads: 4_200,
    };
    expect((await post(`${line('detailed-a', details)}\n`)).status).toBe(200);
    expect((await post(`${line('detailed-a', { publisher: 'Acme 2' })}\n`)).status).toBe(200);
    const [row] = await h.rows<{ item: Record<string, unknown> }>(
      "SELECT event->'item'->'details' AS item FROM collections.outbox WHERE event->'item'->>'slug' = 'detailed-a' ORDER BY id DESC LIMIT 1",
    );
    expect(row?.item).toEqual({
      ...details,
      publisher: 'Acme 2',
      version: null,
      license: null,
      repositoryUrl: null,
      downloads: 4_200,
    });
    const bad = await post(`${line('detailed-b')}\n${line('detailed-c', { homepageUrl: 'ftp://acme' })}\n`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('homepageUrl');
    expect(await count("SELECT count(*) AS n FROM collections.items WHERE slug IN ('detailed-b', 'detailed-c')")).toBe(
      0,
    );
  });

  it('rejects the whole file naming the first bad line, importing nothing', async () => {
    const items = await count('SELECT count(*) AS n FROM collections.items');
    const events = await count('SELECT count(*) AS n FROM collections.outbox');
    const body = [line('good-1'), line('good-2'), line('Bad Slug'), line('good-3')].join('\n');
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Line 3: "slug" has an invalid format; nothing was imported' });
    const fr = await post(body).set('Accept-Language', 'fr');
    expect(fr.body).toEqual({ error: "Ligne 3 : « slug » a un format invalide ; rien n'a été importé" });
    expect(await count('SELECT count(*) AS n FROM collections.items')).toBe(items);
    expect(await count('SELECT count(*) AS n FROM collections.outbox')).toBe(events);
  });

  it.each([
    ['malformed JSON', '{"slug": "x",', 'Line 2: not a valid JSON object; nothing was imported'],
    ['a JSON array', '["x"]', 'Line 2: not a valid JSON object; nothing was imported'],
    [
      'a missing name',
      JSON.stringify({ slug: 'x', category: 'c' }),
      'Line 2: "name" is required; nothing was imported',
    ],
    ['an unknown field', line('x', { price: 1 }), 'Line 2: "price" is not an allowed field; nothing was imported'],
  ])('names the line of %s', async (_label, bad, message) => {
    const res = await post(`${line('fine')}\n${bad}\n${line('also-fine')}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
    expect(await count("SELECT count(*) AS n FROM collections.items WHERE slug IN ('fine', 'also-fine')")).toBe(0);
  });

  it('counts blank lines and CRLF endings like an editor does, and keeps the last line of a repeated slug', async () => {
    const body = `${line('crlf-a')}\r\n\r\n${line('crlf-b', { name: 'First' })}\r\n${line('crlf-b', { name: 'Last' })}\r\n`;
    const res = await post(body);
    expect(res.body).toEqual({ data: { imported: 2 } });
    const rows = await h.rows<{ name: string }>("SELECT name FROM collections.items WHERE slug = 'crlf-b'");
    expect(rows).toEqual([{ name: 'Last' }]);
    const bad = await post(`${line('crlf-c')}\r\n\r\n{oops}\r\n`);
    expect(bad.body.error).toMatch(/^Line 3: /);
  });

  it('answers 400 for a bad first line of a large file while the rest is still arriving', async () => {
    const rest = Array.from({ length: 40_000 }, (_, i) => line(`late-${i}`)).join('\n');
    const res = await post(`not json\n${rest}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Line 1: not a valid JSON object; nothing was imported' });
    expect(await count("SELECT count(*) AS n FROM collections.items WHERE slug LIKE 'late-%'")).toBe(0);
  });

  it('answers 200 with 0 for an empty file', async () => {
    expect((await post('')).body).toEqual({ data: { imported: 0 } });
  });

  it('refuses another content type with 415', async () => {
    const res = await post(line('json-one'), 'application/json');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'Request body must be sent as application/x-ndjson' });
  });

  it('refuses a body over 50 MB with 413 and imports nothing', async () => {
    const before = await count('SELECT count(*) AS n FROM collections.items');
    const res = await post(Buffer.alloc(50 * 1024 * 1024 + 1, 0x20));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'Request body is larger than 50mb' });
    expect(await count('SELECT count(*) AS n FROM collections.items')).toBe(before);
    // 50 MB through supertest: tens of seconds when the two cores are shared with the rest of the suite
  }, 90_000);

  // A client that tears its socket down on the answer (superagent does) cancels its own
  // pending write and reports that instead of the 413, unless the answer waits for the body.
  it('answers a refused body only once all of it has arrived', async () => {
    const server: Server = createServer(h.app).listen(0);
    try {
      const { port } = server.address() as AddressInfo;
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const chunks = 51;
      let sent = 0;
      const answer = await new Promise<{ status: number; body: string; sentBefore: number }>((resolve, reject) => {
        const req = httpRequest({
          port,
          method: 'POST',
          path: '/admin/v1/skills:import',
          headers: {
            'Content-Type': NDJSON,
            'Content-Length': chunk.length * chunks,
            [PRINCIPAL_HEADER]: h.sign(ADMIN, 'post', '/admin/v1/skills:import', STREAMED_BODY),
          },
        });
        req.on('error', reject);
        req.on('response', (res) => {
          const sentBefore = sent;
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sentBefore }));
        });
        // Written slowly, so the server has answered long before the last byte.
        const next = (): void => {
          if (sent === chunks) return void req.end();
          sent += 1;
          req.write(chunk, () => setTimeout(next, 5));
        };
        next();
      });
      expect(answer).toEqual({
        status: 413,
        body: JSON.stringify({ error: 'Request body is larger than 50mb' }),
        sentBefore: chunks,
      });
    } finally {
      server.close();
    }
  });
});
