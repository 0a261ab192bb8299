/**
 * ElasticsearchEngine at the wire: nock sees the HTTP requests the real 8.x
 * client sends (method, path, query, vendored media types, body) and replays
 * responses shaped like a real cluster's.
 */
import nock from 'nock';
import { ServiceUnavailableError, createLogger } from '@skills/common';
import { ElasticsearchEngine, ElasticsearchWriteError, REFRESH_NOW_ITEMS } from '../../src/engines/elasticsearch/elasticsearch.engine';
import { preferenceOf } from '../../src/engines/elasticsearch/elasticsearch.engine';
import { indexDefinition } from '../../src/engines/elasticsearch/index-mapping';
import { buildSearchRequest } from '../../src/engines/elasticsearch/query-builder';
import { queryTerms } from '../../src/domain/text-analysis';
import { ES, ACCEPT, JSON_TYPE, REPLY_HEADERS, NEW_INDEX, OLD_INDEX, NOW, FRESH_BEAT, STALE_BEAT, item, ndjson, indexLines, created, failed, bulkReply, expectBulk, jsonBody, markerMapping, reindexAliasCheck, wireEngine, schemaCheck } from './elasticsearch-wire.fixtures';

let sut: ElasticsearchEngine;

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());

beforeEach(() => {
  sut = wireEngine();
});

afterEach(async () => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  await sut.close();
  expect(pending).toEqual([]);
});

describe('ElasticsearchEngine.init', () => {
  const FIRST_INDEX = 'skills-v0';
  const createdReply = { acknowledged: true, shards_acknowledged: true, index: FIRST_INDEX };

  it('creates the first index with the mapping and the alias when the alias is missing, speaking compatible-with=8', async () => {
    nock(ES).head('/_alias/skills').matchHeader('accept', ACCEPT).reply(404, '', REPLY_HEADERS);
    nock(ES)
      .put(`/${FIRST_INDEX}`, jsonBody({ ...indexDefinition(), aliases: { skills: {} } }))
      .matchHeader('content-type', JSON_TYPE)
      .matchHeader('accept', ACCEPT)
      .reply(200, createdReply, REPLY_HEADERS);
    await sut.init();
    expect(sut.needsRebuild).toBe(false);
  });

  it('puts the alias on one index when two replicas start together on a fresh cluster', async () => {
    const other = wireEngine({ now: () => new Date(NOW.getTime() + 1) });
    const created: string[] = [];
    nock(ES).head('/_alias/skills').twice().reply(404, '', REPLY_HEADERS);
    nock(ES).put(/^\/skills-v\d+$/).reply((path) => {
      created.push(path);
      return [200, createdReply, REPLY_HEADERS];
    });
    nock(ES).put(/^\/skills-v\d+$/).reply((path) => {
      created.push(path);
      const exists = { type: 'resource_already_exists_exception', reason: `index [${FIRST_INDEX}/x1Y2z3] already exists`, index: FIRST_INDEX };
      return [400, { error: { root_cause: [exists], ...exists }, status: 400 }, REPLY_HEADERS];
    });
    nock(ES).head('/_alias/skills').reply(200, '', REPLY_HEADERS);
    try {
      await Promise.all([sut.init(), other.init()]);
    } finally {
      await other.close();
    }
    expect(created).toEqual([`/${FIRST_INDEX}`, `/${FIRST_INDEX}`]);
  });

  it('reads the layout of an existing index and leaves the alias alone', async () => {
    nock(ES).head('/_alias/skills').reply(200, '', REPLY_HEADERS);
    schemaCheck(nock(ES));
    reindexAliasCheck(nock(ES), false);
    await sut.init();
    expect(sut.needsRebuild).toBe(false);
  });

  it('says an index built before the stored analysis must be rebuilt', async () => {
    nock(ES).head('/_alias/skills').reply(200, '', REPLY_HEADERS);
    schemaCheck(nock(ES), null);
    reindexAliasCheck(nock(ES), false);
    await sut.init();
    expect(sut.needsRebuild).toBe(true);
  });

  it('deletes the index of a reindex whose process died', async () => {
    const abandoned = 'skills-v1763000000000';
    nock(ES).head('/_alias/skills').reply(200, '', REPLY_HEADERS);
    schemaCheck(nock(ES));
    reindexAliasCheck(nock(ES), true);
    markerMapping(nock(ES), abandoned, STALE_BEAT);
    nock(ES).get('/_alias/skills').reply(200, { [OLD_INDEX]: { aliases: { skills: {} } } }, REPLY_HEADERS);
    nock(ES).delete(`/${abandoned}`).reply(200, { acknowledged: true }, REPLY_HEADERS);
    await sut.init();
  });

  it('leaves a running reindex alone', async () => {
    nock(ES).head('/_alias/skills').reply(200, '', REPLY_HEADERS);
    schemaCheck(nock(ES));
    reindexAliasCheck(nock(ES), true);
    markerMapping(nock(ES), NEW_INDEX, FRESH_BEAT);
    await sut.init();
  });
});

describe('ElasticsearchEngine.search', () => {
  const query = { q: 'git', page: 2, limit: 1, sort: 'relevance' as const };
  const hit = {
    _index: OLD_INDEX,
    _id: item(1).id,
    _score: 4.2,
    _source: { id: item(1).id, slug: 'skill-1', name: 'Skill 1', description: 'Does thing 1', type: 'skill', category: 'devops', tags: ['t'], updatedAt: '2026-11-20T10:00:00.000Z' },
  };
  const page = (total: number) => ({ took: 2, timed_out: false, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 }, hits: { total: { value: total, relation: 'eq' }, max_score: null, hits: total ? [hit] : [] } });
  const preference = preferenceOf(query);
  // nor trust: a document from before trust reads as unscanned and unverified
  const noDetails = { publisher: null, version: null, license: null, repositoryUrl: null, homepageUrl: null, downloads: 0, latestVersion: null, verdict: 'unscanned', publisherVerified: false };

  it('sends one request to the alias with the query preference when the words as typed find enough, and maps hits and the total', async () => {
    nock(ES)
      .post('/skills/_search', JSON.parse(JSON.stringify(buildSearchRequest(query, { words: queryTerms('git'), key: 'git', typos: false }))))
      .query({ preference })
      .matchHeader('content-type', JSON_TYPE)
      .matchHeader('accept', ACCEPT)
      .reply(200, page(7), REPLY_HEADERS);
    // seven found: no typo run, no suggestion (nock refuses any further request)
    await expect(sut.search(query)).resolves.toEqual({ items: [{ ...hit._source, ...noDetails }], total: 7 });
  });

  it('runs the typo spellings in a second request when the words as typed find fewer than five, and keeps the run that finds more', async () => {
    const typo = { q: 'gitt', page: 1, limit: 1, sort: 'relevance' as const };
    const isTypoRun = (body: { query?: unknown }) => JSON.stringify(body.query).includes('"fuzzy"');
    nock(ES).post('/skills/_search', (body) => !isTypoRun(body)).query(true).reply(200, page(0), REPLY_HEADERS);
    nock(ES).post('/skills/_search', (body) => isTypoRun(body)).query(true).reply(200, page(6), REPLY_HEADERS);
    await expect(sut.search(typo)).resolves.toEqual({ items: [{ ...hit._source, ...noDetails }], total: 6 });
  });

  it('asks no spelling of the typo run when the words as typed found three or four (no suggestion can follow)', async () => {
    const typo = { q: 'gitt', page: 1, limit: 1, sort: 'relevance' as const };
    const isTypoRun = (body: { query?: unknown }) => JSON.stringify(body.query).includes('"fuzzy"');
    nock(ES).post('/skills/_search', (body) => !isTypoRun(body)).query(true).reply(200, page(3), REPLY_HEADERS);
    nock(ES).post('/skills/_search', (body) => isTypoRun(body) && body.suggest === undefined && body.aggs?.typed === undefined).query(true).reply(200, page(4), REPLY_HEADERS);
    await expect(sut.search(typo)).resolves.toEqual({ items: [{ ...hit._source, ...noDetails }], total: 4 });
  });

  it('counts the best spelling in a third request when the answer holds fewer than three', async () => {
    const typo = { q: 'dokcer', page: 1, limit: 1, sort: 'relevance' as const };
    const suggest = { w0: [{ text: 'dokcer', offset: 0, length: 6, options: [{ text: 'docker', score: 0.8, freq: 12 }, { text: 'dockers', score: 0.6, freq: 40 }] }] };
    const typed = { typed: { doc_count: 100, words: { buckets: { w0: { doc_count: 0 } } } } };
    nock(ES).post('/skills/_search', (body) => body.suggest === undefined && body.size !== 0).query(true).reply(200, page(0), REPLY_HEADERS);
    nock(ES).post('/skills/_search', (body) => body.suggest !== undefined).query(true).reply(200, { ...page(1), suggest, aggregations: typed }, REPLY_HEADERS);
    nock(ES)
      .post('/skills/_search', (body) => body.size === 0 && JSON.stringify(body.query).includes('"docker"'))
      .query(true)
      .reply(200, { ...page(12), hits: { ...page(12).hits, hits: [] } }, REPLY_HEADERS);
    // "dockers" is two edits away: a 6-letter word gets one (domain/spelling.ts)
    await expect(sut.search(typo)).resolves.toMatchObject({ total: 1, suggestion: { q: 'docker', total: 12 } });
  });

  it('routes every page of one query to the same shard copies, and other queries elsewhere', () => {
    // https://elastic.co/docs/reference/elasticsearch/rest-apis/search-shard-routing (custom preference string)
    expect(preferenceOf({ ...query, page: 3, limit: 50 })).toBe(preference);
    expect(preference).toMatch(/^[^_]/);
    expect(preferenceOf({ ...query, q: 'gitlab' })).not.toBe(preference);
    expect(preferenceOf({ ...query, category: 'devops' })).not.toBe(preference);
  });

  it('maps the details of a hit, the release under `version`', async () => {
    const details = { publisher: 'Acme', release: '2.1.0', license: 'MIT', repositoryUrl: 'https://git.example/a', homepageUrl: null, downloads: 1234 };
    nock(ES).post('/skills/_search').query(true).reply(200, { ...page(7), hits: { ...page(7).hits, hits: [{ ...hit, _source: { ...hit._source, ...details } }] } }, REPLY_HEADERS);
    const { items } = await sut.search(query);
    expect(items[0]).toMatchObject({ publisher: 'Acme', version: '2.1.0', license: 'MIT', repositoryUrl: 'https://git.example/a', homepageUrl: null, downloads: 1234 });
  });

  it('answers facets from the terms aggregations, counts capped like the total', async () => {
    const faceted = { page: 1, limit: 1, sort: 'newest' as const, facets: ['category' as const, 'type' as const] };
    const aggregations = {
      category: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 'devops', doc_count: 12_000 }, { key: 'data', doc_count: 3 }] },
      type: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 'skill', doc_count: 12_003 }] },
    };
    nock(ES)
      .post('/skills/_search', JSON.parse(JSON.stringify(buildSearchRequest(faceted))))
      .query(true)
      .reply(200, { ...page(10_000), aggregations }, REPLY_HEADERS);
    await expect(sut.search(faceted)).resolves.toMatchObject({
      facets: { category: [{ value: 'devops', count: 10_000 }, { value: 'data', count: 3 }], type: [{ value: 'skill', count: 10_000 }] },
    });
  });

  it('asks nothing of the cluster for a query with no word', async () => {
    await expect(sut.search({ q: '🚀 ✨', page: 1, limit: 20, sort: 'relevance', facets: ['type'] })).resolves.toEqual({ items: [], total: 0, facets: { type: [] } });
  });

  it('retries after a 429 and answers from the second attempt', async () => {
    const browse = { page: 1, limit: 1, sort: 'newest' as const };
    nock(ES).post('/skills/_search').query(true).reply(429, { error: { type: 'es_rejected_execution_exception', reason: 'rejected execution' }, status: 429 }, REPLY_HEADERS);
    nock(ES).post('/skills/_search').query(true).reply(200, page(7), REPLY_HEADERS);
    await expect(sut.search(browse)).resolves.toMatchObject({ total: 7 });
  });

  it('gives up after the retries with a 503 for the caller', async () => {
    nock(ES).post('/skills/_search').query(true).times(3).reply(503, { error: { type: 'unavailable_shards_exception', reason: 'no shards' }, status: 503 }, REPLY_HEADERS);
    await expect(sut.search(query)).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});

/**
 * Writes through the main alias: never auto-creating an index if the alias is gone
 * (require_alias), answered once searchable (refresh=wait_for; refresh=true for a large batch).
 * https://elastic.co/docs/api/doc/elasticsearch/operation/operation-bulk
 */
const MAIN_BULK = '/_bulk?require_alias=true&refresh=wait_for';

describe('ElasticsearchEngine.apply', () => {
  it('bulk-indexes full states through the alias with external versions; a 409 is a stale skip', async () => {
    reindexAliasCheck(nock(ES), false);
    const fresh = item(1);
    const older = item(2);
    expectBulk(nock(ES), MAIN_BULK, ndjson(indexLines('skills', [fresh, older])), bulkReply([
      created(OLD_INDEX, fresh),
      failed(OLD_INDEX, older, 409, 'version_conflict_engine_exception', `[${older.id}]: version conflict, current version [5] is higher or equal to the one provided [2]`),
    ]));
    await expect(sut.apply([fresh, older])).resolves.toEqual({ applied: 1, stale: 1 });
  });

  it('refreshes a batch as large as an import brings at once instead of waiting for the scheduled refresh', async () => {
    reindexAliasCheck(nock(ES), false);
    const batch = Array.from({ length: REFRESH_NOW_ITEMS }, (_, i) => item(i + 1));
    expectBulk(nock(ES), '/_bulk?require_alias=true&refresh=true', ndjson(indexLines('skills', batch)), bulkReply(batch.map((state) => created(OLD_INDEX, state))));
    await expect(sut.apply(batch)).resolves.toEqual({ applied: REFRESH_NOW_ITEMS, stale: 0 });
  });

  it('writes a deletion as a tombstone document with its higher version', async () => {
    reindexAliasCheck(nock(ES), false);
    const tombstone = item(3, { status: 'deleted', version: 9 });
    expectBulk(nock(ES), MAIN_BULK, ndjson(indexLines('skills', [tombstone])), bulkReply([created(OLD_INDEX, tombstone)]));
    await expect(sut.apply([tombstone])).resolves.toEqual({ applied: 1, stale: 0 });
  });

  it('reports an item refused with 400 after writing the others', async () => {
    reindexAliasCheck(nock(ES), false);
    const good = item(1);
    const bad = item(2);
    expectBulk(nock(ES), MAIN_BULK, ndjson(indexLines('skills', [good, bad])), bulkReply([
      created(OLD_INDEX, good),
      failed(OLD_INDEX, bad, 400, 'document_parsing_exception', '[1:42] failed to parse field [updatedAt] of type [date]'),
    ]));
    const err = await sut.apply([good, bad]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ElasticsearchWriteError);
    expect((err as ElasticsearchWriteError).failures).toEqual([
      { id: bad.id, status: 400, reason: '[1:42] failed to parse field [updatedAt] of type [date]' },
    ]);
  });

  it('resends only the items the cluster rejected with 429', async () => {
    reindexAliasCheck(nock(ES), false);
    const a = item(1);
    const b = item(2);
    const scope = nock(ES);
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [a, b])), bulkReply([
      created(OLD_INDEX, a),
      failed(OLD_INDEX, b, 429, 'es_rejected_execution_exception', 'rejected execution of coordinating operation'),
    ]));
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [b])), bulkReply([created(OLD_INDEX, b)]));
    await expect(sut.apply([a, b])).resolves.toEqual({ applied: 2, stale: 0 });
  });

  it('resends after a backoff the items refused with a 5xx while the cluster answers, instead of failing them', async () => {
    reindexAliasCheck(nock(ES), false);
    const a = item(1);
    const b = item(2);
    const scope = nock(ES);
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [a, b])), bulkReply([
      created(OLD_INDEX, a),
      failed(OLD_INDEX, b, 503, 'unavailable_shards_exception', 'primary shard is not active'),
    ]));
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [b])), bulkReply([created(OLD_INDEX, b)]));
    await expect(sut.apply([a, b])).resolves.toEqual({ applied: 2, stale: 0 });
  });

  it('reports the cluster unavailable, not the items refused, when a 429 or 5xx outlasts the retries', async () => {
    reindexAliasCheck(nock(ES), false);
    const a = item(1);
    const scope = nock(ES);
    const busy = bulkReply([failed(OLD_INDEX, a, 503, 'unavailable_shards_exception', 'primary shard is not active')]);
    // the first try and the writer's two retries (wireEngine: retries 2)
    for (let i = 0; i < 3; i++) expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [a])), busy);
    const err = await sut.apply([a]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as Error).cause).toBeInstanceOf(ElasticsearchWriteError);
  });

  it('reports a cluster it cannot reach as unavailable, so the indexer keeps the batch instead of dead-lettering it', async () => {
    nock.enableNetConnect('127.0.0.1:1');
    const offline = new ElasticsearchEngine({
      node: 'http://127.0.0.1:1',
      index: 'skills',
      logger: createLogger({ service: 'test', level: 'silent' }),
      httpConnection: true,
      retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 2 },
    });
    try {
      await expect(offline.apply([item(1)])).rejects.toBeInstanceOf(ServiceUnavailableError);
    } finally {
      nock.disableNetConnect();
      await offline.close();
    }
  });

  it('refuses to write when the main alias is gone, instead of creating an index named like it', async () => {
    reindexAliasCheck(nock(ES), false);
    const a = item(1);
    expectBulk(nock(ES), MAIN_BULK, ndjson(indexLines('skills', [a])), bulkReply([
      failed('skills', a, 404, 'index_not_found_exception', 'no such index [skills] and [require_alias] request flag is [true] and [skills] is not an alias'),
    ]));
    await expect(sut.apply([a])).rejects.toBeInstanceOf(ElasticsearchWriteError);
  });

  it('counts an item a lost answer had written as written, not stale, when the bulk is repeated', async () => {
    reindexAliasCheck(nock(ES), false);
    const landed = item(1);
    const stale = item(2);
    const scope = nock(ES);
    // a proxy timed out waiting: the cluster may have written the items all the same
    scope.post(MAIN_BULK).reply(504, { error: { type: 'gateway_timeout', reason: 'upstream timed out' }, status: 504 }, REPLY_HEADERS);
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [landed, stale])), bulkReply([
      failed(OLD_INDEX, landed, 409, 'version_conflict_engine_exception', 'version conflict, current version [1] is higher or equal to the one provided [1]'),
      failed(OLD_INDEX, stale, 409, 'version_conflict_engine_exception', 'version conflict, current version [9] is higher or equal to the one provided [2]'),
    ]));
    // the stored versions tell: the first attempt wrote `landed`; `stale` was already newer
    scope
      .post('/skills/_mget?_source=false', jsonBody({ ids: [landed.id, stale.id] }))
      .reply(200, { docs: [{ _index: OLD_INDEX, _id: landed.id, _version: 1, found: true }, { _index: OLD_INDEX, _id: stale.id, _version: 9, found: true }] }, REPLY_HEADERS);
    await expect(sut.apply([landed, stale])).resolves.toEqual({ applied: 1, stale: 1 });
  });

  it('repeats the whole bulk when the request itself gets a 503', async () => {
    reindexAliasCheck(nock(ES), false);
    const a = item(1);
    const scope = nock(ES);
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [a])), { error: { type: 'cluster_block_exception', reason: 'blocked' }, status: 503 }, 503);
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [a])), bulkReply([created(OLD_INDEX, a)]));
    await expect(sut.apply([a])).resolves.toEqual({ applied: 1, stale: 0 });
  });
});

describe('ElasticsearchEngine.apply during a reindex', () => {
  it('writes into the index being rebuilt first (only through its alias), then through the main alias', async () => {
    const a = item(1);
    const scope = nock(ES);
    reindexAliasCheck(scope, true);
    markerMapping(scope, NEW_INDEX, FRESH_BEAT);
    expectBulk(scope, '/_bulk?require_alias=true', ndjson(indexLines('skills-reindex', [a])), bulkReply([created(NEW_INDEX, a)]));
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [a])), bulkReply([created(OLD_INDEX, a)]));
    await expect(sut.apply([a])).resolves.toEqual({ applied: 1, stale: 0 });
  });

  it('goes on through the main alias when the reindex alias vanished in between (the swap happened)', async () => {
    const a = item(1);
    const scope = nock(ES);
    reindexAliasCheck(scope, true);
    markerMapping(scope, NEW_INDEX, FRESH_BEAT);
    expectBulk(scope, '/_bulk?require_alias=true', ndjson(indexLines('skills-reindex', [a])), bulkReply([
      failed('skills-reindex', a, 404, 'index_not_found_exception', 'no such index [skills-reindex] and [require_alias] request flag is [true] and [skills-reindex] is not an alias'),
    ]));
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [a])), bulkReply([created(NEW_INDEX, a)]));
    await expect(sut.apply([a])).resolves.toEqual({ applied: 1, stale: 0 });
  });
});

describe('ElasticsearchEngine.apply after a reindex died', () => {
  it('deletes the abandoned index and writes through the main alias only', async () => {
    const a = item(1);
    const abandoned = 'skills-v1763000000000';
    const scope = nock(ES);
    reindexAliasCheck(scope, true);
    markerMapping(scope, abandoned, STALE_BEAT);
    scope.get('/_alias/skills').reply(200, { [OLD_INDEX]: { aliases: { skills: {} } } }, REPLY_HEADERS);
    scope.delete(`/${abandoned}`).reply(200, { acknowledged: true }, REPLY_HEADERS);
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [a])), bulkReply([created(OLD_INDEX, a)]));
    await expect(sut.apply([a])).resolves.toEqual({ applied: 1, stale: 0 });
  });

  it('reads the heartbeat of a live reindex at most once per heartbeat interval', async () => {
    const [a, b] = [item(1), item(2)];
    const scope = nock(ES);
    reindexAliasCheck(scope, true);
    markerMapping(scope, NEW_INDEX, FRESH_BEAT);
    expectBulk(scope, '/_bulk?require_alias=true', ndjson(indexLines('skills-reindex', [a])), bulkReply([created(NEW_INDEX, a)]));
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [a])), bulkReply([created(OLD_INDEX, a)]));
    reindexAliasCheck(scope, true);
    expectBulk(scope, '/_bulk?require_alias=true', ndjson(indexLines('skills-reindex', [b])), bulkReply([created(NEW_INDEX, b)]));
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [b])), bulkReply([created(OLD_INDEX, b)]));
    await sut.apply([a]);
    await sut.apply([b]);
  });
});

describe('ElasticsearchEngine.health', () => {
  it('is ready when the indices behind the alias are yellow, whatever other indices are, and not when they are red', async () => {
    // https://elastic.co/docs/api/doc/elasticsearch/operation/operation-cluster-health (the index path parameter)
    const body = { cluster_name: 'docker-cluster', timed_out: false, number_of_nodes: 1, number_of_data_nodes: 1, active_primary_shards: 1, active_shards: 1 };
    nock(ES).get('/_cluster/health/skills').reply(200, { ...body, status: 'yellow' }, REPLY_HEADERS);
    nock(ES).get('/_cluster/health/skills').reply(200, { ...body, status: 'red' }, REPLY_HEADERS);
    await expect(sut.health()).resolves.toEqual({ ok: true });
    await expect(sut.health()).resolves.toEqual({ ok: false, reason: 'elasticsearch index skills is red' });
  });

  it('is not ready when the node refuses connections', async () => {
    nock.enableNetConnect('127.0.0.1:1');
    const offline = new ElasticsearchEngine({ node: 'http://127.0.0.1:1', index: 'skills', logger: createLogger({ service: 'test', level: 'silent' }), httpConnection: true });
    try {
      await expect(offline.health()).resolves.toEqual({ ok: false, reason: expect.stringContaining('elasticsearch unreachable: ') });
    } finally {
      nock.disableNetConnect();
      await offline.close();
    }
  });
});
