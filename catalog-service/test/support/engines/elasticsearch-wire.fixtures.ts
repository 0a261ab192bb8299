/** Shared fixtures of the Elasticsearch wire tests: replies shaped like a cluster's to the 8.x client. */
import nock from 'nock';
import { type CatalogItemState } from '@skills/common';
import {
  ElasticsearchEngine,
  type ElasticsearchEngineOptions,
} from '../../../src/engines/elasticsearch/elasticsearch.engine';
import { INDEX_SCHEMA, indexDefinition } from '../../../src/engines/elasticsearch/index-mapping';
import { documentVersion, toDocument } from '../../../src/engines/elasticsearch/item-document';
import { silentLogger } from '@skills/common/testing';

export const ES = 'http://es.test:9200';
/**
 * The 8.x client's vendored media types: 8.x nodes take them natively, 9.x
 * nodes through REST API compatibility (an 8.x node refuses compatible-with=9).
 * https://elastic.co/docs/reference/elasticsearch/rest-apis/compatibility
 */
export const JSON_TYPE = 'application/vnd.elasticsearch+json; compatible-with=8';
export const NDJSON_TYPE = 'application/vnd.elasticsearch+x-ndjson; compatible-with=8';
export const ACCEPT = /^application\/vnd\.elasticsearch\+json; compatible-with=8(,text\/plain)?$/;
/** what a node answers a compatible-with=8 request with */
export const REPLY_HEADERS = {
  'content-type': 'application/vnd.elasticsearch+json;compatible-with=8',
  'x-elastic-product': 'Elasticsearch',
};
export const NOW = new Date(1_763_780_000_000);
export const NEW_INDEX = 'skills-v1763780000000';
export const OLD_INDEX = 'skills-v1700000000000';

export function item(n: number, overrides: Partial<CatalogItemState> = {}): CatalogItemState {
  return {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    slug: `skill-${n}`,
    name: `Skill ${n}`,
    description: `Does thing ${n}`,
    type: 'skill',
    category: 'devops',
    tags: ['t'],
    status: 'active',
    visibility: 'public',
    updatedAt: '2026-11-20T10:00:00.000Z',
    version: n,
    ...overrides,
  };
}

export function ndjson(lines: unknown[]): string {
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

export function indexLines(index: string, items: CatalogItemState[]): unknown[] {
  return items.flatMap((i) => [
    { index: { _index: index, _id: i.id, version: documentVersion(i.version, false), version_type: 'external' } },
    documentOf(i),
  ]);
}

/** The document written for a state (its analysis is tested on its own in elasticsearch-query.test.ts). */
export function documentOf(state: CatalogItemState): unknown {
  return JSON.parse(JSON.stringify(toDocument(state)));
}

/** `GET /skills/_mapping`: the layout of the index behind the alias (every start reads it). */
export function schemaCheck(
  scope: nock.Scope,
  schema: number | null = INDEX_SCHEMA,
  index = 'skills-v1700000000000',
  /** what its `_source` keeps: this code's index keeps the shown fields; null, whole documents */
  source: unknown = indexDefinition().mappings?._source,
): nock.Scope {
  const meta = schema === null ? {} : { _meta: { schema } };
  const kept = source === null ? {} : { _source: source };
  return scope
    .get('/skills/_mapping')
    .reply(200, { [index]: { mappings: { ...meta, ...kept, dynamic: 'strict', properties: {} } } }, REPLY_HEADERS);
}

export function created(index: string, i: CatalogItemState) {
  return {
    index: {
      _index: index,
      _id: i.id,
      _version: documentVersion(i.version, false),
      result: 'created',
      _shards: { total: 2, successful: 1, failed: 0 },
      _seq_no: 0,
      _primary_term: 1,
      status: 201,
    },
  };
}

export function failed(index: string, i: CatalogItemState, status: number, type: string, reason: string) {
  return {
    index: {
      _index: index,
      _id: i.id,
      status,
      error: { type, reason, index_uuid: 'aAsFqTI0Tc2W0LCWgPNrOA', shard: '0', index },
    },
  };
}

export function bulkReply(items: unknown[]) {
  const errors = items.some((i) => (i as { index: { status: number } }).index.status >= 300);
  return { errors, took: 3, items };
}

/** Captures the raw NDJSON body of one bulk request. */
export function expectBulk(
  scope: nock.Scope,
  path: string,
  expected: string,
  reply: unknown,
  status = 200,
): nock.Scope {
  return scope
    .post(path, (body: unknown) => {
      expect(body).toBe(expected);
      return true;
    })
    .matchHeader('content-type', NDJSON_TYPE)
    .reply(status, reply as nock.Body, REPLY_HEADERS);
}

/**
 * Puts the suite's HTTP behind nock with the real network refused, checks after
 * each test that every expected request came, and takes nock out after the
 * suite. Jest shares node's http module between the files one worker runs, so
 * an interceptor left installed would sit under the next file's real requests
 * (it made the webhook sender's connection to a real listener fail late).
 */
export function interceptHttp(closeEngine: () => Promise<void>): void {
  beforeAll(() => nock.disableNetConnect());
  afterEach(async () => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    await closeEngine();
    expect(pending).toEqual([]);
  });
  afterAll(() => {
    nock.enableNetConnect();
    nock.restore();
  });
}

/** The engine under test on node:http (so nock sees it), fast retries, a fixed clock. */
export function wireEngine(overrides: Partial<ElasticsearchEngineOptions> = {}): ElasticsearchEngine {
  return new ElasticsearchEngine({
    node: ES,
    index: 'skills',
    logger: silentLogger(),
    httpConnection: true,
    retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 },
    now: () => NOW,
    ...overrides,
  });
}

/** A body matcher that fails with a readable diff when the JSON body differs. */
export function jsonBody(expected: unknown): (body: unknown) => boolean {
  return (body) => {
    expect(body).toEqual(expected);
    return true;
  };
}

/** `HEAD /_alias/skills-reindex`: whether a reindex is building an index (every apply asks). */
export function reindexAliasCheck(scope: nock.Scope, building: boolean): nock.Scope {
  return scope.head('/_alias/skills-reindex').reply(building ? 200 : 404, '', REPLY_HEADERS);
}

/** `GET /skills-reindex/_mapping`: the index behind the reindex marker and its heartbeat (absent: none). */
export function markerMapping(scope: nock.Scope, index: string, heartbeatAt?: Date): nock.Scope {
  const meta = heartbeatAt ? { _meta: { reindexHeartbeatAt: heartbeatAt.toISOString() } } : {};
  return scope
    .get('/skills-reindex/_mapping')
    .reply(200, { [index]: { mappings: { ...meta, dynamic: 'strict', properties: {} } } }, REPLY_HEADERS);
}

/** A heartbeat 5 s before NOW (a live reindex) and one 2 min before (its process died). */
export const FRESH_BEAT = new Date(NOW.getTime() - 5_000);
export const STALE_BEAT = new Date(NOW.getTime() - 120_000);
