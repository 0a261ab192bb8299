/**
 * ElasticsearchEngine's writes at the wire (bulk applies, during and after a
 * reindex, health): nock sees the HTTP requests the real 8.x client sends and
 * replays responses shaped like a real cluster's. Reads: elasticsearch-wire.test.ts.
 */
import nock from 'nock';
import { ServiceUnavailableError } from '@skills/common';
import {
  ElasticsearchEngine,
  ElasticsearchWriteError,
  REFRESH_NOW_ITEMS,
} from '../../../src/engines/elasticsearch/elasticsearch.engine';
import { documentVersion } from '../../../src/engines/elasticsearch/item-document';
import {
  ES,
  REPLY_HEADERS,
  NEW_INDEX,
  OLD_INDEX,
  FRESH_BEAT,
  STALE_BEAT,
  item,
  ndjson,
  indexLines,
  created,
  failed,
  bulkReply,
  expectBulk,
  jsonBody,
  markerMapping,
  reindexAliasCheck,
  wireEngine,
  interceptHttp,
} from '../../support/engines/elasticsearch-wire.fixtures';
import { silentLogger, until } from '@skills/common/testing';

let sut: ElasticsearchEngine;

interceptHttp(() => sut.close());

beforeEach(() => {
  sut = wireEngine();
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
    expectBulk(
      nock(ES),
      MAIN_BULK,
      ndjson(indexLines('skills', [fresh, older])),
      bulkReply([
        created(OLD_INDEX, fresh),
        failed(
          OLD_INDEX,
          older,
          409,
          'version_conflict_engine_exception',
          `[${older.id}]: version conflict, current version [5] is higher or equal to the one provided [2]`,
        ),
      ]),
    );
    await expect(sut.apply([fresh, older])).resolves.toEqual({ applied: 1, stale: 1 });
  });

  it('refreshes a batch as large as an import brings at once instead of waiting for the scheduled refresh', async () => {
    reindexAliasCheck(nock(ES), false);
    const batch = Array.from({ length: REFRESH_NOW_ITEMS }, (_, i) => item(i + 1));
    expectBulk(
      nock(ES),
      '/_bulk?require_alias=true&refresh=true',
      ndjson(indexLines('skills', batch)),
      bulkReply(batch.map((state) => created(OLD_INDEX, state))),
    );
    await expect(sut.apply(batch)).resolves.toEqual({ applied: REFRESH_NOW_ITEMS, stale: 0 });
  });

  it('writes a deletion as a tombstone document with its higher version', async () => {
    reindexAliasCheck(nock(ES), false);
    const tombstone = item(3, { status: 'deleted', version: 9 });
    expectBulk(
      nock(ES),
      MAIN_BULK,
      ndjson(indexLines('skills', [tombstone])),
      bulkReply([created(OLD_INDEX, tombstone)]),
    );
    await expect(sut.apply([tombstone])).resolves.toEqual({ applied: 1, stale: 0 });
  });

  it('reports an item refused with 400 after writing the others', async () => {
    reindexAliasCheck(nock(ES), false);
    const good = item(1);
    const bad = item(2);
    expectBulk(
      nock(ES),
      MAIN_BULK,
      ndjson(indexLines('skills', [good, bad])),
      bulkReply([
        created(OLD_INDEX, good),
        failed(
          OLD_INDEX,
          bad,
          400,
          'document_parsing_exception',
          '[1:42] failed to parse field [updatedAt] of type [date]',
        ),
      ]),
    );
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
    expectBulk(
      scope,
      MAIN_BULK,
      ndjson(indexLines('skills', [a, b])),
      bulkReply([
        created(OLD_INDEX, a),
        failed(OLD_INDEX, b, 429, 'es_rejected_execution_exception', 'rejected execution of coordinating operation'),
      ]),
    );
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [b])), bulkReply([created(OLD_INDEX, b)]));
    await expect(sut.apply([a, b])).resolves.toEqual({ applied: 2, stale: 0 });
  });

  it('resends after a backoff the items refused with a 5xx while the cluster answers, instead of failing them', async () => {
    reindexAliasCheck(nock(ES), false);
    const a = item(1);
    const b = item(2);
    const scope = nock(ES);
    expectBulk(
      scope,
      MAIN_BULK,
      ndjson(indexLines('skills', [a, b])),
      bulkReply([
        created(OLD_INDEX, a),
        failed(OLD_INDEX, b, 503, 'unavailable_shards_exception', 'primary shard is not active'),
      ]),
    );
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

  it('sends an item the cluster keeps refusing with 429 once plus the writer’s retries, not the client helper’s retries on top', async () => {
    reindexAliasCheck(nock(ES), false);
    const a = item(1);
    const scope = nock(ES);
    const busy = bulkReply([
      failed(OLD_INDEX, a, 429, 'es_rejected_execution_exception', 'rejected execution of coordinating operation'),
    ]);
    let bulks = 0;
    scope
      .post(MAIN_BULK)
      .times(20)
      .reply(() => {
        bulks += 1;
        return [200, busy, REPLY_HEADERS];
      });
    await expect(sut.apply([a])).rejects.toBeInstanceOf(ServiceUnavailableError);
    // the first try and the writer's two retries (wireEngine: retries 2)
    expect(bulks).toBe(3);
    nock.cleanAll();
  });

  it('reports a cluster it cannot reach as unavailable, so the indexer keeps the batch instead of dead-lettering it', async () => {
    nock.enableNetConnect('127.0.0.1:1');
    const offline = new ElasticsearchEngine({
      node: 'http://127.0.0.1:1',
      index: 'skills',
      logger: silentLogger(),
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
    expectBulk(
      nock(ES),
      MAIN_BULK,
      ndjson(indexLines('skills', [a])),
      bulkReply([
        failed(
          'skills',
          a,
          404,
          'index_not_found_exception',
          'no such index [skills] and [require_alias] request flag is [true] and [skills] is not an alias',
        ),
      ]),
    );
    await expect(sut.apply([a])).rejects.toBeInstanceOf(ElasticsearchWriteError);
  });

  it('counts an item a lost answer had written as written, not stale, when the bulk is repeated', async () => {
    reindexAliasCheck(nock(ES), false);
    const landed = item(1);
    const stale = item(2);
    const scope = nock(ES);
    // a proxy timed out waiting: the cluster may have written the items all the same
    scope
      .post(MAIN_BULK)
      .reply(504, { error: { type: 'gateway_timeout', reason: 'upstream timed out' }, status: 504 }, REPLY_HEADERS);
    expectBulk(
      scope,
      MAIN_BULK,
      ndjson(indexLines('skills', [landed, stale])),
      bulkReply([
        failed(
          OLD_INDEX,
          landed,
          409,
          'version_conflict_engine_exception',
          'version conflict, current version [1] is higher or equal to the one provided [1]',
        ),
        failed(
          OLD_INDEX,
          stale,
          409,
          'version_conflict_engine_exception',
          'version conflict, current version [9] is higher or equal to the one provided [2]',
        ),
      ]),
    );
    // the stored versions tell: the first attempt wrote `landed`; `stale` was already newer
    scope.post('/skills/_mget?_source=false', jsonBody({ ids: [landed.id, stale.id] })).reply(
      200,
      {
        docs: [
          { _index: OLD_INDEX, _id: landed.id, _version: documentVersion(landed.version, false), found: true },
          { _index: OLD_INDEX, _id: stale.id, _version: documentVersion(9, false), found: true },
        ],
      },
      REPLY_HEADERS,
    );
    await expect(sut.apply([landed, stale])).resolves.toEqual({ applied: 1, stale: 1 });
  });

  it('repeats the whole bulk when the request itself gets a 503', async () => {
    reindexAliasCheck(nock(ES), false);
    const a = item(1);
    const scope = nock(ES);
    expectBulk(
      scope,
      MAIN_BULK,
      ndjson(indexLines('skills', [a])),
      { error: { type: 'cluster_block_exception', reason: 'blocked' }, status: 503 },
      503,
    );
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
    expectBulk(
      scope,
      '/_bulk?require_alias=true',
      ndjson(indexLines('skills-reindex', [a])),
      bulkReply([created(NEW_INDEX, a)]),
    );
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [a])), bulkReply([created(OLD_INDEX, a)]));
    await expect(sut.apply([a])).resolves.toEqual({ applied: 1, stale: 0 });
  });

  it('goes on through the main alias when the reindex alias vanished in between (the swap happened)', async () => {
    const a = item(1);
    const scope = nock(ES);
    reindexAliasCheck(scope, true);
    markerMapping(scope, NEW_INDEX, FRESH_BEAT);
    expectBulk(
      scope,
      '/_bulk?require_alias=true',
      ndjson(indexLines('skills-reindex', [a])),
      bulkReply([
        failed(
          'skills-reindex',
          a,
          404,
          'index_not_found_exception',
          'no such index [skills-reindex] and [require_alias] request flag is [true] and [skills-reindex] is not an alias',
        ),
      ]),
    );
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
    expectBulk(
      scope,
      '/_bulk?require_alias=true',
      ndjson(indexLines('skills-reindex', [a])),
      bulkReply([created(NEW_INDEX, a)]),
    );
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [a])), bulkReply([created(OLD_INDEX, a)]));
    reindexAliasCheck(scope, true);
    expectBulk(
      scope,
      '/_bulk?require_alias=true',
      ndjson(indexLines('skills-reindex', [b])),
      bulkReply([created(NEW_INDEX, b)]),
    );
    expectBulk(scope, MAIN_BULK, ndjson(indexLines('skills', [b])), bulkReply([created(OLD_INDEX, b)]));
    await sut.apply([a]);
    await sut.apply([b]);
  });
});

describe('ElasticsearchEngine.health', () => {
  it('is ready when the indices behind the alias are yellow, whatever other indices are, and not when they are red', async () => {
    // https://elastic.co/docs/api/doc/elasticsearch/operation/operation-cluster-health (the index path parameter)
    const body = {
      cluster_name: 'docker-cluster',
      timed_out: false,
      number_of_nodes: 1,
      number_of_data_nodes: 1,
      active_primary_shards: 1,
      active_shards: 1,
    };
    nock(ES)
      .get('/_cluster/health/skills')
      .reply(200, { ...body, status: 'yellow' }, REPLY_HEADERS);
    nock(ES)
      .get('/_cluster/health/skills')
      .reply(200, { ...body, status: 'red' }, REPLY_HEADERS);
    await expect(sut.health()).resolves.toEqual({ ok: true });
    await expect(sut.health()).resolves.toEqual({ ok: false, reason: 'elasticsearch index skills is red' });
  });

  it('is not ready when the node refuses connections', async () => {
    nock.enableNetConnect('127.0.0.1:1');
    const offline = new ElasticsearchEngine({
      node: 'http://127.0.0.1:1',
      index: 'skills',
      logger: silentLogger(),
      httpConnection: true,
    });
    try {
      await expect(offline.health()).resolves.toEqual({
        ok: false,
        reason: expect.stringContaining('elasticsearch unreachable: '),
      });
    } finally {
      nock.disableNetConnect();
      await offline.close();
    }
  });
});

/**
 * After a bulk of writes goes quiet, one force merge into one segment, as a
 * task (compaction.ts); never for an index too large for the merge policy to
 * merge its one segment again.
 * https://elastic.co/docs/api/doc/elasticsearch/operation/operation-indices-forcemerge
 */
describe('ElasticsearchEngine compaction', () => {
  const STATS = '/skills/_stats/store%2Csegments';
  const MERGE = '/skills/_forcemerge?max_num_segments=1&wait_for_completion=false';
  const stats = (bytes: number, segments: number) => ({
    _all: { primaries: { store: { size_in_bytes: bytes }, segments: { count: segments } } },
  });

  async function applyOne(engine: ElasticsearchEngine, n: number): Promise<void> {
    reindexAliasCheck(nock(ES), false);
    const state = item(n);
    expectBulk(nock(ES), MAIN_BULK, ndjson(indexLines('skills', [state])), bulkReply([created(OLD_INDEX, state)]));
    await engine.apply([state]);
  }

  beforeEach(async () => {
    await sut.close();
    sut = wireEngine({ compaction: { afterItems: 2, quietMs: 30 } });
  });

  it('merges the index into one segment once, when writes of enough items have gone quiet', async () => {
    const inspected = nock(ES)
      .get(STATS)
      .reply(200, stats(100 * 1024 ** 2, 7), REPLY_HEADERS);
    const merged = nock(ES).post(MERGE).reply(200, { task: 'node-1:42' }, REPLY_HEADERS);
    await applyOne(sut, 1);
    await applyOne(sut, 2);
    await until(() => merged.isDone());
    expect(inspected.isDone()).toBe(true);
    expect(merged.isDone()).toBe(true);
  });

  it('leaves an index of 2.5 GB or more to the merge policy', async () => {
    const inspected = nock(ES)
      .get(STATS)
      .reply(200, stats(3 * 1024 ** 3, 40), REPLY_HEADERS);
    const merge = nock(ES).post(MERGE);
    const mergeScope = merge.reply(200, { task: 'node-1:43' }, REPLY_HEADERS);
    await applyOne(sut, 1);
    await applyOne(sut, 2);
    await until(() => inspected.isDone());
    await new Promise((resolve) => setTimeout(resolve, 100));
    const merged = mergeScope.isDone();
    nock.removeInterceptor(merge);
    expect(inspected.isDone()).toBe(true);
    expect(merged).toBe(false);
  });
});
