/**
 * The SearchEngine conformance suite on the Elasticsearch engine, against a
 * fake node of each supported major over real HTTP (fake-elasticsearch/):
 * the engine's requests, their answers and its own steps (expansion, typo
 * run, suggestion) are those of a live run; the fake stands in for Lucene's
 * matching and scoring, as its comments cite. The live suite
 * (elasticsearch-live.test.ts) runs the same cases on a real cluster.
 */
import { createLogger } from '@skills/common';
import { ElasticsearchEngine } from '../../src/engines/elasticsearch/elasticsearch.engine';
import { startFakeElasticsearch } from './fake-elasticsearch/http-server';
import { describeSearchEngineConformance } from './search-engine.conformance';

for (const major of [8, 9] as const) {
  describeSearchEngineConformance(`ElasticsearchEngine on a fake ${major}.x node`, async () => {
    const node = await startFakeElasticsearch(major);
    const engine = new ElasticsearchEngine({
      node: node.url,
      index: 'skills',
      logger: createLogger({ service: 'test', level: 'silent' }),
      retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
    });
    await engine.init();
    return {
      engine,
      teardown: async () => {
        await engine.close();
        await node.close();
      },
    };
  });
}
