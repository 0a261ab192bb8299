import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { UpstreamError, type CatalogItemState } from '@skills/common';
import { itemsReaderSource } from '../../../src/reindex/items-reader.source';

const TOKEN = 'items-reader-token-of-at-least-32-chars';

function state(n: number): CatalogItemState {
  return {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    slug: `s-${n}`,
    name: `Item ${n}`,
    description: '',
    type: 'skill',
    category: 'general',
    tags: [],
    status: 'active',
    visibility: 'public',
    updatedAt: '2026-11-20T10:00:00.000Z',
    version: 1,
  };
}

const ITEMS = [1, 2, 3, 4, 5].map(state);

/** Stands in for collections-service: keyset pages, for the items reader token only. */
function collectionsService(failures: Array<number | 'drop'> = []) {
  const seen: string[] = [];
  const principals: Array<string | undefined> = [];
  const app = express();
  app.get('/internal/v1/items', async (req, res) => {
    seen.push(req.originalUrl);
    principals.push(req.get('x-skills-principal'));
    if (req.get('authorization') !== `Bearer ${TOKEN}`) {
      res.status(401).json({ error: 'Missing or invalid items reader token' });
      return;
    }
    const status = failures.shift();
    if (status === 'drop') {
      req.socket.destroy();
      return;
    }
    if (status) {
      res.status(status).json({ error: 'nope' });
      return;
    }
    const after = typeof req.query.after === 'string' ? req.query.after : '';
    const limit = Number(req.query.limit);
    const rest = ITEMS.filter((i) => i.id > after);
    const items = rest.slice(0, limit);
    res.json({ data: { items, next: rest.length > limit ? items[items.length - 1]?.id : null } });
  });
  return { app, seen, principals };
}

let server: Server;

async function listen(app: express.Express): Promise<string> {
  server = createServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function collect(source: AsyncIterable<CatalogItemState[]>): Promise<string[][]> {
  const pages: string[][] = [];
  for await (const page of source) pages.push(page.map((i) => i.name));
  return pages;
}

afterEach(async () => {
  server.close();
  await once(server, 'close');
});

describe('itemsReaderSource', () => {
  const token = TOKEN;

  it('reads every item page by page with the items reader token, never as a principal', async () => {
    const fake = collectionsService();
    const baseUrl = await listen(fake.app);
    const pages = await collect(itemsReaderSource({ baseUrl, token, pageSize: 2 }));
    expect(pages).toEqual([['Item 1', 'Item 2'], ['Item 3', 'Item 4'], ['Item 5']]);
    expect(fake.seen).toEqual([
      '/internal/v1/items?limit=2',
      `/internal/v1/items?limit=2&after=${ITEMS[1]?.id}`,
      `/internal/v1/items?limit=2&after=${ITEMS[3]?.id}`,
    ]);
    expect(fake.principals).toEqual([undefined, undefined, undefined]);
  });

  it('asks again after a 503 from collections-service', async () => {
    const fake = collectionsService([503]);
    const baseUrl = await listen(fake.app);
    expect(await collect(itemsReaderSource({ baseUrl, token, pageSize: 5 }))).toEqual([ITEMS.map((i) => i.name)]);
    expect(fake.seen).toHaveLength(2);
  });

  it('asks again after a 502, a 504 and a dropped connection, as the retry rule of calls between services says', async () => {
    const fake = collectionsService([502, 'drop', 504]);
    const baseUrl = await listen(fake.app);
    expect(await collect(itemsReaderSource({ baseUrl, token, pageSize: 5, attempts: 4 }))).toEqual([
      ITEMS.map((i) => i.name),
    ]);
    expect(fake.seen).toHaveLength(4);
  });

  it('gives up after its tries, and never asks again after a 500: that answer will not change', async () => {
    const unavailable = collectionsService([503, 503, 503]);
    const err = await collect(itemsReaderSource({ baseUrl: await listen(unavailable.app), token, attempts: 3 })).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ status: 503, messageKey: 'upstream.unavailable' });
    expect(unavailable.seen).toHaveLength(3);
    server.close();
    const broken = collectionsService([500]);
    const failed = await collect(itemsReaderSource({ baseUrl: await listen(broken.app), token, attempts: 3 })).catch(
      (e: unknown) => e,
    );
    expect(((failed as UpstreamError).cause as Error).message).toBe(
      'collections-service answered 500 to /internal/v1/items?limit=1000',
    );
    expect(broken.seen).toHaveLength(1);
  });

  it('stops reading once shutdown aborts it', async () => {
    const fake = collectionsService();
    const baseUrl = await listen(fake.app);
    const shutdown = new AbortController();
    const reading = itemsReaderSource({ baseUrl, token, pageSize: 2, signal: shutdown.signal })[Symbol.asyncIterator]();
    expect((await reading.next()).value).toHaveLength(2);
    shutdown.abort(new Error('shutting down'));
    await expect(reading.next()).rejects.toThrow('shutting down');
    expect(fake.seen).toHaveLength(1);
  });

  it('fails at once when collections-service refuses the request', async () => {
    const baseUrl = await listen(collectionsService().app);
    const err = await collect(itemsReaderSource({ baseUrl, token: 'another-token-of-at-least-32-characters' })).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).status).toBe(502);
    expect(((err as UpstreamError).cause as Error).message).toBe(
      'collections-service answered 401 to /internal/v1/items?limit=1000',
    );
  });
});
