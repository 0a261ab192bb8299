/**
 * Zero-downtime reindex at the wire: new versioned index, bulk of every
 * page, refresh, one atomic `_aliases` swap, delete of the old index — and
 * searches and writes keep working on the alias meanwhile.
 */
import nock from 'nock';
import type { CatalogItemState } from '@skills/common';
import type { ElasticsearchEngine } from '../../../src/engines/elasticsearch/elasticsearch.engine';
import { ElasticsearchWriteError } from '../../../src/engines/elasticsearch/elasticsearch.engine';
import { indexDefinition, indexMeta } from '../../../src/engines/elasticsearch/index-mapping';
import { heartbeatMeta } from '../../../src/engines/elasticsearch/reindex-marker';
import {
  ES,
  JSON_TYPE,
  REPLY_HEADERS,
  NEW_INDEX,
  OLD_INDEX,
  NOW,
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

const ACK = { acknowledged: true };
let sut: ElasticsearchEngine;
let requests: string[];

function es(): nock.Scope {
  const scope = nock(ES);
  scope.on('request', (req: { method: string; path: string }) =>
    requests.push(`${req.method} ${new URL(req.path, ES).pathname}`),
  );
  return scope;
}

async function* pages(
  ...batches: Array<CatalogItemState[] | (() => Promise<void>)>
): AsyncIterable<CatalogItemState[]> {
  for (const b of batches) {
    if (typeof b === 'function') await b();
    else yield b;
  }
}

interceptHttp(() => sut.close());
beforeEach(() => {
  requests = [];
  sut = wireEngine();
});

describe('ElasticsearchEngine.reindex', () => {
  it('builds a new index, keeps serving from the alias, swaps atomically, then deletes the old index', async () => {
    const [a, b, c] = [item(1), item(2), item(3)];
    const cNewer = item(3, { name: 'Skill 3 renamed', version: 8 });
    reindexAliasCheck(es(), false);
    es()
      .put(
        `/${NEW_INDEX}`,
        jsonBody({ ...indexDefinition({ ...heartbeatMeta(NOW) }), aliases: { 'skills-reindex': {} } }),
      )
      .matchHeader('content-type', JSON_TYPE)
      .reply(200, { acknowledged: true, shards_acknowledged: true, index: NEW_INDEX }, REPLY_HEADERS);
    expectBulk(
      es(),
      '/_bulk',
      ndjson(indexLines(NEW_INDEX, [a, b])),
      bulkReply([created(NEW_INDEX, a), created(NEW_INDEX, b)]),
    );
    // mid-reindex: a search reads the alias; an event is written to the new index (through its reindex alias), then the alias
    es()
      .post('/skills/_search')
      .query(true)
      .reply(
        200,
        { took: 1, timed_out: false, hits: { total: { value: 0, relation: 'eq' }, hits: [] } },
        REPLY_HEADERS,
      );
    reindexAliasCheck(es(), true);
    markerMapping(es(), NEW_INDEX, NOW);
    expectBulk(
      es(),
      '/_bulk?require_alias=true',
      ndjson(indexLines('skills-reindex', [cNewer])),
      bulkReply([created(NEW_INDEX, cNewer)]),
    );
    expectBulk(
      es(),
      '/_bulk?require_alias=true&refresh=wait_for',
      ndjson(indexLines('skills', [cNewer])),
      bulkReply([created(OLD_INDEX, cNewer)]),
    );
    // the page read before the event carries the older state: stale in the new index
    expectBulk(
      es(),
      '/_bulk',
      ndjson(indexLines(NEW_INDEX, [c])),
      bulkReply([
        failed(
          NEW_INDEX,
          c,
          409,
          'version_conflict_engine_exception',
          `[${c.id}]: version conflict, current version [8] is higher or equal to the one provided [3]`,
        ),
      ]),
    );
    es()
      .get(`/${NEW_INDEX}/_refresh`)
      .reply(200, { _shards: { total: 2, successful: 1, failed: 0 } }, REPLY_HEADERS);
    es()
      .get('/_alias/skills')
      .reply(200, { [OLD_INDEX]: { aliases: { skills: {} } } }, REPLY_HEADERS);
    es()
      .post(
        '/_aliases',
        jsonBody({
          actions: [
            { remove: { index: OLD_INDEX, alias: 'skills' } },
            { add: { index: NEW_INDEX, alias: 'skills' } },
            { remove: { index: NEW_INDEX, alias: 'skills-reindex' } },
          ],
        }),
      )
      .matchHeader('content-type', JSON_TYPE)
      .reply(200, { acknowledged: true, errors: false }, REPLY_HEADERS);
    // writes that reached the new index after the first refresh become searchable before the reindex returns
    es()
      .get(`/${NEW_INDEX}/_refresh`)
      .reply(200, { _shards: { total: 2, successful: 1, failed: 0 } }, REPLY_HEADERS);
    es().delete(`/${OLD_INDEX}`).reply(200, ACK, REPLY_HEADERS);

    const progress: number[] = [];
    const midway = async () => {
      await sut.search({ page: 1, limit: 20, sort: 'newest' });
      await expect(sut.apply([cNewer])).resolves.toEqual({ applied: 1, stale: 0 });
    };
    const result = await sut.reindex(pages([a, b], midway, [c]), (p) => progress.push(p.indexed));

    expect(result).toEqual({ indexed: 3 });
    expect(progress).toEqual([2, 3]);
    expect(requests).toEqual([
      'HEAD /_alias/skills-reindex',
      `PUT /${NEW_INDEX}`,
      'POST /_bulk',
      'POST /skills/_search',
      'HEAD /_alias/skills-reindex',
      'GET /skills-reindex/_mapping',
      'POST /_bulk',
      'POST /_bulk',
      'POST /_bulk',
      `GET /${NEW_INDEX}/_refresh`,
      'GET /_alias/skills',
      'POST /_aliases',
      `GET /${NEW_INDEX}/_refresh`,
      `DELETE /${OLD_INDEX}`,
    ]);
  });

  it('drops the new index and leaves the alias alone when an item is refused', async () => {
    const bad = item(1);
    reindexAliasCheck(es(), false);
    es()
      .put(`/${NEW_INDEX}`)
      .reply(200, { acknowledged: true, shards_acknowledged: true, index: NEW_INDEX }, REPLY_HEADERS);
    expectBulk(
      es(),
      '/_bulk',
      ndjson(indexLines(NEW_INDEX, [bad])),
      bulkReply([failed(NEW_INDEX, bad, 400, 'document_parsing_exception', 'failed to parse field [updatedAt]')]),
    );
    es().delete(`/${NEW_INDEX}`).reply(200, ACK, REPLY_HEADERS);

    await expect(sut.reindex(pages([bad]))).rejects.toBeInstanceOf(ElasticsearchWriteError);
    expect(requests).toEqual([
      'HEAD /_alias/skills-reindex',
      `PUT /${NEW_INDEX}`,
      'POST /_bulk',
      `DELETE /${NEW_INDEX}`,
    ]);

    // later writes go to the alias only: deleting the index dropped its reindex alias
    const next = item(2);
    reindexAliasCheck(es(), false);
    expectBulk(
      es(),
      '/_bulk?require_alias=true&refresh=wait_for',
      ndjson(indexLines('skills', [next])),
      bulkReply([created(OLD_INDEX, next)]),
    );
    await expect(sut.apply([next])).resolves.toEqual({ applied: 1, stale: 0 });
  });

  it('drops the new index when the system of record cannot be read', async () => {
    reindexAliasCheck(es(), false);
    es()
      .put(`/${NEW_INDEX}`)
      .reply(200, { acknowledged: true, shards_acknowledged: true, index: NEW_INDEX }, REPLY_HEADERS);
    es().delete(`/${NEW_INDEX}`).reply(200, ACK, REPLY_HEADERS);
    const broken = async () => {
      throw new Error('collections-service answered 503');
    };
    await expect(sut.reindex(pages(broken))).rejects.toThrow('collections-service answered 503');
    expect(requests).toEqual(['HEAD /_alias/skills-reindex', `PUT /${NEW_INDEX}`, `DELETE /${NEW_INDEX}`]);
  });

  it('keeps the new index when the swap went through but its answer was lost', async () => {
    const a = item(1);
    reindexAliasCheck(es(), false);
    es()
      .put(`/${NEW_INDEX}`)
      .reply(200, { acknowledged: true, shards_acknowledged: true, index: NEW_INDEX }, REPLY_HEADERS);
    expectBulk(es(), '/_bulk', ndjson(indexLines(NEW_INDEX, [a])), bulkReply([created(NEW_INDEX, a)]));
    es()
      .get(`/${NEW_INDEX}/_refresh`)
      .twice()
      .reply(200, { _shards: { total: 1, successful: 1, failed: 0 } }, REPLY_HEADERS);
    es()
      .get('/_alias/skills')
      .reply(200, { [OLD_INDEX]: { aliases: { skills: {} } } }, REPLY_HEADERS);
    // applied, but the gateway in front of the cluster timed out; the retry finds the old alias gone
    es()
      .post('/_aliases')
      .reply(504, { error: { type: 'timeout', reason: 'gateway timeout' }, status: 504 }, REPLY_HEADERS);
    es()
      .post('/_aliases')
      .reply(
        404,
        { error: { type: 'aliases_not_found_exception', reason: 'aliases [skills] missing' }, status: 404 },
        REPLY_HEADERS,
      );
    es()
      .get('/_alias/skills')
      .reply(200, { [NEW_INDEX]: { aliases: { skills: {} } } }, REPLY_HEADERS);
    es().delete(`/${OLD_INDEX}`).reply(200, ACK, REPLY_HEADERS);
    await expect(sut.reindex(pages([a]))).resolves.toEqual({ indexed: 1 });
    expect(requests).not.toContain(`DELETE /${NEW_INDEX}`);
  });

  it('finishes a reindex whose swap went through though the refresh after it failed: the new index serves, the old is deleted', async () => {
    const a = item(1);
    reindexAliasCheck(es(), false);
    es()
      .put(`/${NEW_INDEX}`)
      .reply(200, { acknowledged: true, shards_acknowledged: true, index: NEW_INDEX }, REPLY_HEADERS);
    expectBulk(es(), '/_bulk', ndjson(indexLines(NEW_INDEX, [a])), bulkReply([created(NEW_INDEX, a)]));
    es()
      .get(`/${NEW_INDEX}/_refresh`)
      .reply(200, { _shards: { total: 1, successful: 1, failed: 0 } }, REPLY_HEADERS);
    es()
      .get('/_alias/skills')
      .reply(200, { [OLD_INDEX]: { aliases: { skills: {} } } }, REPLY_HEADERS);
    es().post('/_aliases').reply(200, ACK, REPLY_HEADERS);
    // the refresh after the swap fails, its retries too (wireEngine: retries 2)
    es()
      .get(`/${NEW_INDEX}/_refresh`)
      .times(3)
      .reply(503, { error: { type: 'unavailable_shards_exception', reason: 'no shards' }, status: 503 }, REPLY_HEADERS);
    es().delete(`/${OLD_INDEX}`).reply(200, ACK, REPLY_HEADERS);
    await expect(sut.reindex(pages([a]))).resolves.toEqual({ indexed: 1 });
    expect(requests).not.toContain(`DELETE /${NEW_INDEX}`);
  });

  it('drops the new index when the swap is refused', async () => {
    const a = item(1);
    reindexAliasCheck(es(), false);
    es()
      .put(`/${NEW_INDEX}`)
      .reply(200, { acknowledged: true, shards_acknowledged: true, index: NEW_INDEX }, REPLY_HEADERS);
    expectBulk(es(), '/_bulk', ndjson(indexLines(NEW_INDEX, [a])), bulkReply([created(NEW_INDEX, a)]));
    es()
      .get(`/${NEW_INDEX}/_refresh`)
      .reply(200, { _shards: { total: 1, successful: 1, failed: 0 } }, REPLY_HEADERS);
    es()
      .get('/_alias/skills')
      .twice()
      .reply(200, { [OLD_INDEX]: { aliases: { skills: {} } } }, REPLY_HEADERS);
    es()
      .post('/_aliases')
      .reply(
        400,
        { error: { type: 'illegal_argument_exception', reason: 'bad alias action' }, status: 400 },
        REPLY_HEADERS,
      );
    es().delete(`/${NEW_INDEX}`).reply(200, ACK, REPLY_HEADERS);
    await expect(sut.reindex(pages([a]))).rejects.toMatchObject({ meta: { statusCode: 400 } });
  });

  it('refuses to start while another replica is building an index (its heartbeat is fresh)', async () => {
    reindexAliasCheck(es(), true);
    markerMapping(es(), 'skills-v1763779000000', FRESH_BEAT);
    await expect(sut.reindex(pages([item(1)]))).rejects.toThrow(
      'a reindex is already building an index behind skills-reindex',
    );
    expect(requests).toEqual(['HEAD /_alias/skills-reindex', 'GET /skills-reindex/_mapping']);
  });

  it('deletes the index of a reindex whose heartbeat stopped, then runs', async () => {
    const abandoned = 'skills-v1763000000000';
    const a = item(1);
    reindexAliasCheck(es(), true);
    markerMapping(es(), abandoned, STALE_BEAT);
    es()
      .get('/_alias/skills')
      .reply(200, { [OLD_INDEX]: { aliases: { skills: {} } } }, REPLY_HEADERS);
    es().delete(`/${abandoned}`).reply(200, ACK, REPLY_HEADERS);
    es()
      .put(`/${NEW_INDEX}`)
      .reply(200, { acknowledged: true, shards_acknowledged: true, index: NEW_INDEX }, REPLY_HEADERS);
    expectBulk(es(), '/_bulk', ndjson(indexLines(NEW_INDEX, [a])), bulkReply([created(NEW_INDEX, a)]));
    es()
      .get(`/${NEW_INDEX}/_refresh`)
      .twice()
      .reply(200, { _shards: { total: 1, successful: 1, failed: 0 } }, REPLY_HEADERS);
    es()
      .get('/_alias/skills')
      .reply(200, { [OLD_INDEX]: { aliases: { skills: {} } } }, REPLY_HEADERS);
    es().post('/_aliases').reply(200, { acknowledged: true, errors: false }, REPLY_HEADERS);
    es().delete(`/${OLD_INDEX}`).reply(200, ACK, REPLY_HEADERS);
    await expect(sut.reindex(pages([a]))).resolves.toEqual({ indexed: 1 });
    expect(requests.slice(0, 5)).toEqual([
      'HEAD /_alias/skills-reindex',
      'GET /skills-reindex/_mapping',
      'GET /_alias/skills',
      `DELETE /${abandoned}`,
      `PUT /${NEW_INDEX}`,
    ]);
  });

  it('renews its heartbeat while the pages are read', async () => {
    await sut.close();
    sut = wireEngine({ reindexHeartbeatMs: 20 });
    const a = item(1);
    reindexAliasCheck(es(), false);
    es()
      .put(`/${NEW_INDEX}`)
      .reply(200, { acknowledged: true, shards_acknowledged: true, index: NEW_INDEX }, REPLY_HEADERS);
    const beats: unknown[] = [];
    let secondBeat = () => {};
    const twoBeats = new Promise<void>((resolve) => (secondBeat = resolve));
    const beat = (body: unknown) => {
      if (beats.push(body) === 2) secondBeat();
      return true;
    };
    es().put(`/${NEW_INDEX}/_mapping`, beat).times(2).reply(200, ACK, REPLY_HEADERS);
    // however many more beats a slow machine fits in before the swap (afterEach cleans the persisted interceptor)
    es().put(`/${NEW_INDEX}/_mapping`).optionally().reply(200, ACK, REPLY_HEADERS).persist();
    expectBulk(es(), '/_bulk', ndjson(indexLines(NEW_INDEX, [a])), bulkReply([created(NEW_INDEX, a)]));
    es()
      .get(`/${NEW_INDEX}/_refresh`)
      .twice()
      .reply(200, { _shards: { total: 1, successful: 1, failed: 0 } }, REPLY_HEADERS);
    es()
      .get('/_alias/skills')
      .reply(200, { [OLD_INDEX]: { aliases: { skills: {} } } }, REPLY_HEADERS);
    es().post('/_aliases').reply(200, { acknowledged: true, errors: false }, REPLY_HEADERS);
    es().delete(`/${OLD_INDEX}`).reply(200, ACK, REPLY_HEADERS);
    // The source holds its page until the heartbeat has been renewed twice, however long that takes.
    let timer: NodeJS.Timeout | undefined;
    const noBeats = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${beats.length} of 2 heartbeats within 10 s of reading`)), 10_000);
    });
    const slowSource = () => Promise.race([twoBeats, noBeats]).finally(() => clearTimeout(timer));
    await expect(sut.reindex(pages(slowSource, [a]))).resolves.toEqual({ indexed: 1 });
    // a mapping update replaces `_meta` whole: every beat carries the layout too
    expect(beats.slice(0, 2)).toEqual(
      [heartbeatMeta(NOW), heartbeatMeta(NOW)].map((meta) => ({ _meta: indexMeta({ ...meta }) })),
    );
  });

  it('swaps without a remove action when the alias does not exist yet', async () => {
    const a = item(1);
    reindexAliasCheck(es(), false);
    es()
      .put(`/${NEW_INDEX}`)
      .reply(200, { acknowledged: true, shards_acknowledged: true, index: NEW_INDEX }, REPLY_HEADERS);
    expectBulk(es(), '/_bulk', ndjson(indexLines(NEW_INDEX, [a])), bulkReply([created(NEW_INDEX, a)]));
    es()
      .get(`/${NEW_INDEX}/_refresh`)
      .twice()
      .reply(200, { _shards: { total: 1, successful: 1, failed: 0 } }, REPLY_HEADERS);
    es().get('/_alias/skills').reply(404, { error: 'alias [skills] missing', status: 404 }, REPLY_HEADERS);
    es()
      .post(
        '/_aliases',
        jsonBody({
          actions: [
            { add: { index: NEW_INDEX, alias: 'skills' } },
            { remove: { index: NEW_INDEX, alias: 'skills-reindex' } },
          ],
        }),
      )
      .reply(200, { acknowledged: true, errors: false }, REPLY_HEADERS);
    await expect(sut.reindex(pages([a]))).resolves.toEqual({ indexed: 1 });
  });
});
