/**
 * The search cache in front of Elasticsearch, at the wire. The cache bumps
 * its generation when `apply` returns, so `apply` must return only once the
 * write is searchable: otherwise a search in the refresh window (~1 s) would
 * store the old answer under the new generation.
 */
import nock from 'nock';
import type { ElasticsearchEngine } from '../../../src/engines/elasticsearch/elasticsearch.engine';
import { CachingSearchEngine } from '../../../src/search-cache/caching-search-engine';
import type { IndexGeneration } from '../../../src/search-cache/index-generation';
import {
  ES,
  OLD_INDEX,
  REPLY_HEADERS,
  item,
  ndjson,
  indexLines,
  created,
  bulkReply,
  expectBulk,
  reindexAliasCheck,
  wireEngine,
  interceptHttp,
} from '../../support/engines/elasticsearch-wire.fixtures';
import { silentLogger } from '@skills/common/testing';

/** The shared generation as one process sees it; the SQL one is tested with the cache itself. */
class CountingGeneration implements IndexGeneration {
  private n = 0;
  read = (): Promise<number> => Promise.resolve(this.n);
  bump = (): Promise<number> => Promise.resolve(++this.n);
}

// a browse: a text query finding fewer than 3 would also ask for a spelling suggestion
const query = { page: 1, limit: 20, sort: 'newest' as const };
const hitsOf = (sources: unknown[]) => ({
  took: 1,
  timed_out: false,
  hits: {
    total: { value: sources.length, relation: 'eq' },
    hits: sources.map((s, i) => ({ _index: OLD_INDEX, _id: String(i), _score: 1, _source: s })),
  },
});

let es: ElasticsearchEngine;
let cache: CachingSearchEngine;

interceptHttp(() => cache.close());
beforeEach(async () => {
  es = wireEngine();
  cache = new CachingSearchEngine({
    engine: es,
    generation: new CountingGeneration(),
    logger: silentLogger(),
    maxEntries: 100,
    maxBytes: 1_000_000,
    ttlMs: 60_000,
    pollMs: 60_000,
  });
  await cache.start();
});

describe('CachingSearchEngine over Elasticsearch', () => {
  it('serves repeats from the cache, and after an apply reads an index that already shows the write', async () => {
    const a = item(1);
    nock(ES).post('/skills/_search').query(true).reply(200, hitsOf([]), REPLY_HEADERS);
    expect((await cache.search(query)).total).toBe(0);
    expect((await cache.search(query)).total).toBe(0); // no second request: nock would refuse it

    reindexAliasCheck(nock(ES), false);
    // refresh=wait_for: Elasticsearch answers once the write is searchable, and only then does the cache move on
    expectBulk(
      nock(ES),
      '/_bulk?require_alias=true&refresh=wait_for',
      ndjson(indexLines('skills', [a])),
      bulkReply([created(OLD_INDEX, a)]),
    );
    await cache.apply([a]);

    nock(ES)
      .post('/skills/_search')
      .query(true)
      .reply(200, hitsOf([a]), REPLY_HEADERS);
    expect((await cache.search(query)).total).toBe(1);
  });
});
