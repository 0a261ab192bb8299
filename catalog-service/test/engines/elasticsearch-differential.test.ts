/**
 * Elasticsearch answers the bench's long-tail queries exactly as the memory
 * engine does (search-differential.ts), on a generated catalog of 1,500
 * items: against a fake node here, against a real cluster in
 * elasticsearch-live.test.ts when ELASTICSEARCH_URL is set.
 */
import { createLogger } from '@skills/common';
import { ElasticsearchEngine } from '../../src/engines/elasticsearch/elasticsearch.engine';
import { startFakeElasticsearch, type FakeNode } from './fake-elasticsearch/http-server';
import { differences, differentialCorpus, differentialQueries, manyWordQueries, memoryReference } from './search-differential';

describe('Elasticsearch against the memory engine on the long-tail mix', () => {
  let node: FakeNode;
  let engine: ElasticsearchEngine;

  beforeAll(async () => {
    node = await startFakeElasticsearch(9);
    engine = new ElasticsearchEngine({ node: node.url, index: 'skills', logger: createLogger({ service: 'test', level: 'silent' }) });
    await engine.init();
  });

  afterAll(async () => {
    await engine.close();
    await node.close();
  });

  // The fake node reads every document for every request: a larger run belongs to the live suite (3,000 items, 500 queries).
  it('gives the same page, total, facets and suggestion for 300 queries', async () => {
    const corpus = differentialCorpus(1_500);
    const queries = [...differentialQueries(corpus, 250), ...manyWordQueries(corpus, 50)];
    expect(await differences(memoryReference(), engine, corpus, queries)).toEqual([]);
  }, 300_000);
});
