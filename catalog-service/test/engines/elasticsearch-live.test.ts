/**
 * The SearchEngine conformance suite against a real Elasticsearch 9.x, run
 * only when ELASTICSEARCH_URL is set (e.g. `docker compose up elasticsearch`);
 * without it jest reports the suite as skipped. Each test gets its own alias,
 * and every index behind it is deleted afterwards.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import { createLogger } from '@skills/common';
import { ElasticsearchEngine } from '../../src/engines/elasticsearch/elasticsearch.engine';
import { describeSearchEngineConformance } from './search-engine.conformance';

const url = process.env.ELASTICSEARCH_URL;
const describeLive = url ? describe : describe.skip;

describeLive('ElasticsearchEngine on a live cluster', () => {
  const admin = new Client({ node: url ?? 'http://unused', maxRetries: 1 });

  afterAll(async () => {
    await admin.close();
  });

  describeSearchEngineConformance('ElasticsearchEngine', async () => {
    const alias = `skills-test-${randomUUID().slice(0, 8)}`;
    const engine = new ElasticsearchEngine({
      node: url ?? '',
      index: alias,
      logger: createLogger({ service: 'test', level: 'silent' }),
    });
    await engine.init();
    return {
      engine,
      teardown: async () => {
        await engine.close();
        // by name: wildcard deletes are refused by default (action.destructive_requires_name)
        const indices = Object.keys(await admin.indices.get({ index: `${alias}-v*` }));
        if (indices.length > 0) await admin.indices.delete({ index: indices });
      },
    };
  });
});
