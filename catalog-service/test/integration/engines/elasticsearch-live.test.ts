// @store-specific the server run searches with Elasticsearch 8, the PGlite run with 9
/**
 * The Elasticsearch engine on a real node (8.x or 9.x), run when
 * ELASTICSEARCH_URL is set (`.ci/run` and `npm run test:live` start 8.19 and
 * 9.5 with local-servers/elasticsearch.sh); without it jest reports these
 * suites as skipped. The conformance suite with the text rules, what only
 * Elasticsearch must prove, and a comparison with the memory engine. Each test gets its own alias; every index
 * behind it is deleted afterwards.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import { ElasticsearchEngine } from '../../../src/engines/elasticsearch/elasticsearch.engine';
import { describeElasticsearchSpecifics } from '../../support/engines/elasticsearch-specifics';
import { describeSearchEngineConformance } from '../../support/engines/search-engine.conformance';
import { describeMeaningConformance, MEANING_SYNONYMS } from '../../support/engines/search-meaning.conformance';
import { itemState } from '../../support/engines/engine-items';
import { FakeTextEmbedder } from '../../support/fake-text-embedder';
import { MeaningSearchEngine } from '../../../src/vectors/meaning-search-engine';
import { VectorBackfill } from '../../../src/vectors/vector-backfill';
import { MemoryVectorStore } from '../../support/memory-vector-store';
import {
  compareEngines,
  differentialCorpus,
  differentialQueries,
  manyWordQueries,
  memoryReference,
} from '../../support/engines/search-differential';
import { silentLogger } from '@skills/common/testing';

const url = process.env.ELASTICSEARCH_URL;
const describeLive = url ? describe : describe.skip;
const logger = silentLogger();

describeLive('ElasticsearchEngine on a live cluster', () => {
  const admin = new Client({ node: url ?? 'http://unused', maxRetries: 1 });

  afterAll(async () => {
    await admin.close();
  });

  /** Deletes every index named after the alias (by name: wildcard deletes are refused by default). */
  async function dropIndicesOf(alias: string): Promise<void> {
    const indices = Object.keys(await admin.indices.get({ index: `${alias}*`, ignore_unavailable: true }));
    if (indices.length > 0) await admin.indices.delete({ index: indices });
  }

  describeSearchEngineConformance('ElasticsearchEngine', async () => {
    const alias = `skills-test-${randomUUID().slice(0, 8)}`;
    const engine = new ElasticsearchEngine({ node: url ?? '', index: alias, logger });
    await engine.init();
    return {
      engine,
      teardown: async () => {
        await engine.close();
        await dropIndicesOf(alias);
      },
    };
  });

  describeMeaningConformance('ElasticsearchEngine', async (embedder) => {
    const alias = `skills-test-${randomUUID().slice(0, 8)}`;
    const store = new MemoryVectorStore();
    const engine = new ElasticsearchEngine({
      node: url ?? '',
      index: alias,
      logger,
      vectors: { model: embedder.model, dimensions: embedder.dimensions, store },
    });
    await engine.init();
    const backfill = new VectorBackfill({ target: engine.vectors!, embedder, store, logger });
    return {
      engine,
      drain: async () => {
        while ((await backfill.step()) > 0);
      },
      teardown: async () => {
        await engine.close();
        await dropIndicesOf(alias);
      },
    };
  });

  it('searches an index without the model’s vectors by words, writes to it without vectors, and by meaning once it is rebuilt', async () => {
    const alias = `skills-test-${randomUUID().slice(0, 8)}`;
    const store = new MemoryVectorStore();
    const embedder = new FakeTextEmbedder({ synonyms: MEANING_SYNONYMS, dimensions: 384 });
    const before = new ElasticsearchEngine({ node: url ?? '', index: alias, logger });
    const engine = new ElasticsearchEngine({
      node: url ?? '',
      index: alias,
      logger,
      vectors: { model: embedder.model, dimensions: embedder.dimensions, store },
    });
    try {
      await before.init();
      const docsmith = itemState({ name: 'Docsmith', description: 'Portable documents to markup' });
      const press = itemState({ name: 'Pdf Press', description: 'Turns pdf into markdown' });
      await before.apply([docsmith]);
      await engine.init();
      expect(engine.needsRebuild).toBe(true);
      await engine.apply([press]);
      const search = new MeaningSearchEngine({ engine, embedder, logger });
      const q = { q: 'turn a pdf into markdown', page: 1, limit: 20, sort: 'relevance' as const };
      const meanwhile = await search.search(q);
      expect([meanwhile.mode, meanwhile.items.map((i) => i.name)]).toEqual(['lexical', ['Pdf Press']]);
      await engine.reindex(
        (async function* () {
          yield [docsmith, press];
        })(),
      );
      const backfill = new VectorBackfill({ target: engine.vectors!, embedder, store, logger });
      while ((await backfill.step()) > 0);
      const rebuilt = await search.search(q);
      expect([rebuilt.mode, rebuilt.items.map((i) => i.name).sort()]).toEqual(['hybrid', ['Docsmith', 'Pdf Press']]);
    } finally {
      await before.close();
      await engine.close();
      await dropIndicesOf(alias);
    }
  });

  describeElasticsearchSpecifics('a live cluster', async () => {
    const alias = `skills-test-${randomUUID().slice(0, 8)}`;
    return { url: url ?? '', alias, cleanup: () => dropIndicesOf(alias) };
  });

  it('matches what the memory engine matches on the long-tail mix, and reports how alike their first pages are', async () => {
    const alias = `skills-test-${randomUUID().slice(0, 8)}`;
    const engine = new ElasticsearchEngine({ node: url ?? '', index: alias, logger });
    await engine.init();
    try {
      const corpus = differentialCorpus(3_000);
      const queries = [...differentialQueries(corpus, 400), ...manyWordQueries(corpus, 100)];
      const comparison = await compareEngines(memoryReference(), engine, corpus, queries);
      // a report, not a gate: ranks are each engine's own (docs/elasticsearch.md "Query")
      process.stdout.write(
        `long-tail mix, ${comparison.queries} queries: top-10 overlap with the memory engine ${(100 * comparison.topTenOverlap).toFixed(1)} %\n`,
      );
      expect(comparison.matchDisagreements).toEqual([]);
    } finally {
      await engine.close();
      await dropIndicesOf(alias);
    }
  }, 600_000);
});
