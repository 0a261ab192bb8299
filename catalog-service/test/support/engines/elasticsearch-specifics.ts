/**
 * What only the Elasticsearch engine has to prove, on a real node
 * (elasticsearch-live.test.ts): a missing alias refuses writes instead of
 * growing a stray index, an index of an older layout is reported and
 * rebuilt, a long reindex keeps its layout, a bulk of writes ends in one
 * segment, a stored document holds only what a search shows, and a cluster
 * that refuses expensive queries still answers.
 */
import { ElasticsearchEngine, ElasticsearchWriteError } from '../../../src/engines/elasticsearch/elasticsearch.engine';
import { PUBLIC_SOURCE_FIELDS } from '../../../src/engines/elasticsearch/item-document';
import { itemState } from './engine-items';
import { silentLogger } from '@skills/common/testing';

export interface NodeUnderTest {
  url: string;
  /** a fresh alias per test, so live runs do not collide */
  alias: string;
  cleanup(): Promise<void>;
}

/** A JSON request to the node, as an operator's tool would send it. */
async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export function describeElasticsearchSpecifics(name: string, start: () => Promise<NodeUnderTest>): void {
  describe(`${name}: what only Elasticsearch must prove`, () => {
    let node: NodeUnderTest;
    let engine: ElasticsearchEngine;
    const logger = silentLogger();

    beforeEach(async () => {
      node = await start();
      engine = new ElasticsearchEngine({
        node: node.url,
        index: node.alias,
        logger,
        retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
      });
    });
    afterEach(async () => {
      await engine.close();
      await node.cleanup();
    });

    it('refuses writes while its alias is missing, and never makes an index named like the alias', async () => {
      await engine.init();
      await engine.apply([itemState({ name: 'Before' })]);
      const behind = Object.keys((await call(node.url, 'GET', `/_alias/${node.alias}`)).body as object);
      await call(node.url, 'POST', '/_aliases', {
        actions: behind.map((index) => ({ remove: { index, alias: node.alias } })),
      });
      await expect(engine.apply([itemState({ name: 'After' })])).rejects.toBeInstanceOf(ElasticsearchWriteError);
      expect((await call(node.url, 'GET', `/${node.alias}/_mapping`)).status).toBe(404);
    });

    it('reports an index of an older layout, and answers again once rebuilt', async () => {
      const old = `${node.alias}-v1`;
      await call(node.url, 'PUT', `/${old}`, {
        mappings: { properties: { name: { type: 'text' } } },
        aliases: { [node.alias]: {} },
      });
      await engine.init();
      expect(engine.needsRebuild).toBe(true);
      const item = itemState({ name: 'Rebuilt Helper' });
      await engine.reindex(
        (async function* () {
          yield [item];
        })(),
      );
      expect(engine.needsRebuild).toBe(false);
      expect(
        (await engine.search({ q: 'rebuilt', page: 1, limit: 20, sort: 'relevance' })).items.map((i) => i.id),
      ).toEqual([item.id]);
    });

    it('keeps its layout through a reindex long enough to renew its heartbeat', async () => {
      await engine.close();
      engine = new ElasticsearchEngine({ node: node.url, index: node.alias, logger, reindexHeartbeatMs: 50 });
      await engine.init();
      const item = itemState({ name: 'Slow Rebuild' });
      await engine.reindex(
        (async function* () {
          // several heartbeats while the source is read
          await new Promise((resolve) => setTimeout(resolve, 400));
          yield [item];
        })(),
      );
      const fresh = new ElasticsearchEngine({ node: node.url, index: node.alias, logger });
      try {
        await fresh.init();
        expect(fresh.needsRebuild).toBe(false);
        expect(
          (await fresh.search({ q: 'slow rebuild', page: 1, limit: 20, sort: 'relevance' })).items.map((i) => i.id),
        ).toEqual([item.id]);
      } finally {
        await fresh.close();
      }
    });

    it('merges its index into one segment once a bulk of writes has gone quiet, and still finds every item', async () => {
      await engine.close();
      engine = new ElasticsearchEngine({
        node: node.url,
        index: node.alias,
        logger,
        compaction: { afterItems: 3, quietMs: 100 },
      });
      await engine.init();
      const names = ['Segment Alpha', 'Segment Beta', 'Segment Gamma'];
      // each apply is answered once searchable: a refresh, so a segment of its own
      for (const name of names) await engine.apply([itemState({ name })]);
      const segments = async () => {
        const stats = (await call(node.url, 'GET', `/${node.alias}/_stats/segments`)).body as {
          _all: { primaries: { segments: { count: number } } };
        };
        return stats._all.primaries.segments.count;
      };
      let count = await segments();
      for (let waited = 0; count > 1 && waited < 15_000; waited += 200) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        count = await segments();
      }
      expect(count).toBe(1);
      expect(
        (await engine.search({ q: 'segment', page: 1, limit: 20, sort: 'relevance' })).items.map((i) => i.name).sort(),
      ).toEqual(names);
    });

    it('stores only the fields a search shows, and a search shows every one of them', async () => {
      await engine.init();
      const details = {
        publisher: 'Acme',
        version: '1.2.0',
        license: 'MIT',
        repositoryUrl: 'https://git.example/s',
        homepageUrl: null,
        downloads: 42,
      };
      const item = itemState({ name: 'Stored Shape', description: 'kept as shown', tags: ['shape'], details });
      await engine.apply([item]);
      const stored = (await call(node.url, 'GET', `/${node.alias}/_doc/${item.id}`)).body as {
        _source: Record<string, unknown>;
      };
      // the search fields (words, stems, name keys, weights) are indexed, not stored
      expect(Object.keys(stored._source).sort()).toEqual([...PUBLIC_SOURCE_FIELDS].sort());
      const [found] = (await engine.search({ q: 'stored shape', page: 1, limit: 20, sort: 'relevance' })).items;
      expect(found).toMatchObject({
        id: item.id,
        name: 'Stored Shape',
        description: 'kept as shown',
        tags: ['shape'],
        ...details,
      });
    });

    it('answers, typo runs included, when the cluster refuses expensive queries', async () => {
      await engine.init();
      await engine.apply([itemState({ name: 'Kubernetes Deployer' }), itemState({ name: 'Kubectl Helper' })]);
      const setting = (value: boolean | null) =>
        call(node.url, 'PUT', '/_cluster/settings', { persistent: { 'search.allow_expensive_queries': value } });
      expect((await setting(false)).status).toBe(200);
      try {
        const search = (q: string) => engine.search({ q, page: 1, limit: 20, sort: 'relevance' });
        // the last word's completions and the name rules are term lookups: allowed
        expect((await search('kube')).items.map((i) => i.name).sort()).toEqual([
          'Kubectl Helper',
          'Kubernetes Deployer',
        ]);
        expect((await search('kubernetes deployer')).items.map((i) => i.name)).toEqual(['Kubernetes Deployer']);
        // a typo run's spellings come from the term suggester and are term lookups too
        expect((await search('kubernetse')).items.map((i) => i.name)).toEqual(['Kubernetes Deployer']);
      } finally {
        await setting(null);
      }
    });
  });
}
