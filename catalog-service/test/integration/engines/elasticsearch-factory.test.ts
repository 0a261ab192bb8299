import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sequelize } from 'sequelize';
import { createSearchEngine } from '../../../src/engines';
import { INDEX_SCHEMA } from '../../../src/engines/elasticsearch/index-mapping';
import { ElasticsearchEngine } from '../../../src/engines/elasticsearch/elasticsearch.engine';
import { silentLogger } from '@skills/common/testing';

const deps = { sequelize: {} as Sequelize, logger: silentLogger() };

describe('createSearchEngine', () => {
  it('refuses elasticsearch without a URL', async () => {
    await expect(
      createSearchEngine({ searchEngine: 'elasticsearch', elasticsearchIndex: 'skills', indexPollMs: 50 }, deps),
    ).rejects.toThrow('ELASTICSEARCH_URL is required when SEARCH_ENGINE=elasticsearch');
  });

  it('fails the start when the cluster cannot be reached, instead of at the first request', async () => {
    const started = createSearchEngine(
      {
        searchEngine: 'elasticsearch',
        elasticsearchUrl: 'http://127.0.0.1:1',
        elasticsearchIndex: 'skills',
        indexPollMs: 50,
      },
      deps,
    );
    await expect(started).rejects.toMatchObject({ name: 'ConnectionError' });
  });

  it('readies an ElasticsearchEngine on the default (undici) connection when the alias exists', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      // the alias exists, on an index of the current layout; no reindex is running
      const status = req.url?.includes('-reindex') ? 404 : 200;
      const body =
        req.url === '/skills/_mapping'
          ? JSON.stringify({ 'skills-v0': { mappings: { _meta: { schema: INDEX_SCHEMA } } } })
          : undefined;
      res.writeHead(status, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' }).end(body);
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const { engine, needsRebuild } = await createSearchEngine(
        { searchEngine: 'elasticsearch', elasticsearchUrl: url, elasticsearchIndex: 'skills', indexPollMs: 50 },
        deps,
      );
      expect(engine).toBeInstanceOf(ElasticsearchEngine);
      expect(needsRebuild).toBe(false);
      expect(seen).toEqual(['HEAD /_alias/skills', 'GET /skills/_mapping', 'HEAD /_alias/skills-reindex']);
      await engine.close();
    } finally {
      server.close();
    }
  });
});
