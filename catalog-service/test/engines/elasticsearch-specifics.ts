/**
 * What only the Elasticsearch engine has to prove, on any node: a missing
 * alias refuses writes instead of growing a stray index, and an index of an
 * older layout is reported and rebuilt. Run on the fake nodes
 * (elasticsearch-node.test.ts) and on a live cluster (elasticsearch-live.test.ts).
 */
import { createLogger } from '@skills/common';
import { ElasticsearchEngine, ElasticsearchWriteError } from '../../src/engines/elasticsearch/elasticsearch.engine';
import { itemState } from './search-engine.conformance';

export interface NodeUnderTest {
  url: string;
  /** a fresh alias per test, so live runs do not collide */
  alias: string;
  cleanup(): Promise<void>;
}

/** A JSON request to the node, as an operator's tool would send it. */
async function call(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export function describeElasticsearchSpecifics(name: string, start: () => Promise<NodeUnderTest>): void {
  describe(`${name}: what only Elasticsearch must prove`, () => {
    let node: NodeUnderTest;
    let engine: ElasticsearchEngine;
    const logger = createLogger({ service: 'test', level: 'silent' });

    beforeEach(async () => {
      node = await start();
      engine = new ElasticsearchEngine({ node: node.url, index: node.alias, logger, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 } });
    });
    afterEach(async () => {
      await engine.close();
      await node.cleanup();
    });

    it('refuses writes while its alias is missing, and never makes an index named like the alias', async () => {
      await engine.init();
      await engine.apply([itemState({ name: 'Before' })]);
      const behind = Object.keys((await call(node.url, 'GET', `/_alias/${node.alias}`)).body as object);
      await call(node.url, 'POST', '/_aliases', { actions: behind.map((index) => ({ remove: { index, alias: node.alias } })) });
      await expect(engine.apply([itemState({ name: 'After' })])).rejects.toBeInstanceOf(ElasticsearchWriteError);
      expect((await call(node.url, 'GET', `/${node.alias}/_mapping`)).status).toBe(404);
    });

    it('reports an index of an older layout, and answers again once rebuilt', async () => {
      const old = `${node.alias}-v1`;
      await call(node.url, 'PUT', `/${old}`, { mappings: { properties: { name: { type: 'text' } } }, aliases: { [node.alias]: {} } });
      await engine.init();
      expect(engine.needsRebuild).toBe(true);
      const item = itemState({ name: 'Rebuilt Helper' });
      await engine.reindex((async function* () {
        yield [item];
      })());
      expect(engine.needsRebuild).toBe(false);
      expect((await engine.search({ q: 'rebuilt', page: 1, limit: 20, sort: 'relevance' })).items.map((i) => i.id)).toEqual([item.id]);
    });
  });
}
