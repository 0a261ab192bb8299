/**
 * ElasticsearchEngine at the wire: nock sees the HTTP requests the real 8.x
 * client sends (method, path, query, vendored media types, body) and replays
 * responses shaped like a real cluster's.
 */
import nock from 'nock';
import { ServiceUnavailableError } from '@skills/common';
import type { ElasticsearchEngine } from '../../../src/engines/elasticsearch/elasticsearch.engine';
import { preferenceOf } from '../../../src/engines/elasticsearch/elasticsearch.engine';
import { INDEX_SCHEMA, indexDefinition } from '../../../src/engines/elasticsearch/index-mapping';
import { buildSearchRequest } from '../../../src/engines/elasticsearch/query-builder';
import { RESPONSE_FIELDS } from '../../../src/engines/elasticsearch/search-flow';
import { PUBLIC_SOURCE_FIELDS } from '../../../src/engines/elasticsearch/item-document';
import { queryTerms } from '../../../src/domain/text-analysis';
import {
  ES,
  ACCEPT,
  JSON_TYPE,
  REPLY_HEADERS,
  NEW_INDEX,
  OLD_INDEX,
  NOW,
  FRESH_BEAT,
  STALE_BEAT,
  item,
  jsonBody,
  markerMapping,
  reindexAliasCheck,
  wireEngine,
  schemaCheck,
  interceptHttp,
} from '../../support/engines/elasticsearch-wire.fixtures';

let sut: ElasticsearchEngine;

interceptHttp(() => sut.close());

beforeEach(() => {
  sut = wireEngine();
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
    nock(ES)
      .put(/^\/skills-v\d+$/)
      .reply((path) => {
        created.push(path);
        return [200, createdReply, REPLY_HEADERS];
      });
    nock(ES)
      .put(/^\/skills-v\d+$/)
      .reply((path) => {
        created.push(path);
        const exists = {
          type: 'resource_already_exists_exception',
          reason: `index [${FIRST_INDEX}/x1Y2z3] already exists`,
          index: FIRST_INDEX,
        };
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
    nock(ES)
      .get('/_alias/skills')
      .reply(200, { [OLD_INDEX]: { aliases: { skills: {} } } }, REPLY_HEADERS);
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
    _source: {
      id: item(1).id,
      slug: 'skill-1',
      name: 'Skill 1',
      description: 'Does thing 1',
      type: 'skill',
      category: 'devops',
      tags: ['t'],
      updatedAt: '2026-11-20T10:00:00.000Z',
    },
  };
  const page = (total: number) => ({
    took: 2,
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: { total: { value: total, relation: 'eq' }, max_score: null, hits: total ? [hit] : [] },
  });
  const preference = preferenceOf(query);
  // an engine that has not read its index's mapping asks for the shown fields, as for an index that stores whole documents
  const shown = { _source: [...PUBLIC_SOURCE_FIELDS] };
  // nor trust: a document from before trust reads as unscanned and unverified
  const noDetails = {
    publisher: null,
    version: null,
    license: null,
    repositoryUrl: null,
    homepageUrl: null,
    downloads: 0,
    latestVersion: null,
    verdict: 'unscanned',
    publisherVerified: false,
  };

  it('sends one request to the alias with the query preference when the words as typed find enough, and maps hits and the total', async () => {
    nock(ES)
      .post(
        '/skills/_search',
        JSON.parse(
          JSON.stringify({ ...buildSearchRequest(query, { words: queryTerms('git'), key: 'git' }), ...shown }),
        ),
      )
      // the answer holds only what the engine reads
      .query({ preference, filter_path: RESPONSE_FIELDS.join(',') })
      .matchHeader('content-type', JSON_TYPE)
      .matchHeader('accept', ACCEPT)
      .reply(200, page(7), REPLY_HEADERS);
    // seven found: no typo run, no suggestion (nock refuses any further request)
    await expect(sut.search(query)).resolves.toEqual({ items: [{ ...hit._source, ...noDetails }], total: 7 });
  });

  it('asks for the shown fields only of an index that stores whole documents', async () => {
    const sent: unknown[] = [];
    const started = async (source: unknown) => {
      nock(ES).head('/_alias/skills').reply(200, '', REPLY_HEADERS);
      schemaCheck(nock(ES), INDEX_SCHEMA, OLD_INDEX, source);
      reindexAliasCheck(nock(ES), false);
      await sut.init();
      nock(ES)
        .post('/skills/_search', (body) => sent.push(body._source) > 0)
        .query(true)
        .reply(200, page(7), REPLY_HEADERS);
      await sut.search(query);
    };
    // made before `_source` kept the shown fields: the node filters each hit's document
    await started(null);
    // this code's layout: the stored document is what is shown, read as it is
    await started(indexDefinition().mappings?._source);
    expect(sent).toEqual([[...PUBLIC_SOURCE_FIELDS], undefined]);
  });

  /** The term suggester's answer for one word: its options, most frequent first. */
  const spellings = (word: string, options: Array<[string, number]>) => ({
    w0: [
      {
        text: word,
        offset: 0,
        length: word.length,
        options: options.map(([text, freq]) => ({ text, score: 0.8, freq })),
      },
    ],
  });
  const isTypoRun = (body: { query?: unknown }) => JSON.stringify(body.query).includes('"boost":0.5');

  it('asks the spellings of each word in a second request when the words as typed find fewer than five, and runs them as terms in a third', async () => {
    const typo = { q: 'gitt', page: 1, limit: 1, sort: 'relevance' as const };
    nock(ES)
      .post('/skills/_search', (body) => body.suggest === undefined && !isTypoRun(body))
      .query(true)
      .reply(200, page(3), REPLY_HEADERS);
    nock(ES)
      .post(
        '/skills/_search',
        (body) =>
          body.size === 0 && body.query?.match_none !== undefined && body.suggest?.w0?.term?.suggest_mode === 'popular',
      )
      .query(true)
      .reply(200, { suggest: spellings('gitt', [['git', 9]]) }, REPLY_HEADERS);
    nock(ES)
      .post(
        '/skills/_search',
        (body) =>
          JSON.stringify(body.query).includes('{"term":{"words":{"value":"git","boost":0.5}}}') &&
          body.suggest === undefined,
      )
      .query(true)
      .reply(200, page(6), REPLY_HEADERS);
    await expect(sut.search(typo)).resolves.toEqual({ items: [{ ...hit._source, ...noDetails }], total: 6 });
  });

  it('asks no spelling when the words as typed find five, and sends no typo run when no word has a spelling', async () => {
    nock(ES).post('/skills/_search').query(true).reply(200, page(5), REPLY_HEADERS);
    await expect(sut.search({ q: 'gitt', page: 1, limit: 1, sort: 'relevance' })).resolves.toMatchObject({ total: 5 });
    nock(ES).post('/skills/_search').query(true).reply(200, page(2), REPLY_HEADERS);
    nock(ES)
      .post('/skills/_search', (body) => body.suggest !== undefined)
      .query(true)
      .reply(200, { suggest: spellings('gitt', []) }, REPLY_HEADERS);
    // nock refuses any further request
    await expect(sut.search({ q: 'gitt', page: 1, limit: 1, sort: 'relevance' })).resolves.toMatchObject({ total: 2 });
  });

  it('counts the best spelling beside the typo run, in one _msearch, when fewer than three are found', async () => {
    const typo = { q: 'dokcer', page: 1, limit: 1, sort: 'relevance' as const };
    nock(ES).post('/skills/_search').query(true).reply(200, page(0), REPLY_HEADERS);
    nock(ES)
      .post('/skills/_search')
      .query(true)
      .reply(
        200,
        {
          suggest: spellings('dokcer', [
            ['dockers', 40],
            ['docker', 12],
          ]),
        },
        REPLY_HEADERS,
      );
    const searches: Array<Record<string, unknown>> = [];
    nock(ES)
      .post(
        '/skills/_msearch',
        (body: string) =>
          searches.push(
            ...body
              .trim()
              .split('\n')
              .map((line) => JSON.parse(line) as Record<string, unknown>),
          ) > 0,
      )
      .query(true)
      .reply(
        200,
        { took: 1, responses: [page(1), { ...page(12), hits: { ...page(12).hits, hits: [] } }] },
        REPLY_HEADERS,
      );
    // "dockers" is two edits away: a 6-letter word gets one (domain/spelling.ts)
    await expect(sut.search(typo)).resolves.toMatchObject({ total: 1, suggestion: { q: 'docker', total: 12 } });
    const [typoHeader, typoRun, , count] = searches;
    expect(typoHeader).toEqual({ preference: preferenceOf(typo) });
    expect(isTypoRun(typoRun!)).toBe(true);
    expect(JSON.stringify(typoRun!.query)).not.toContain('dockers');
    expect(count).toMatchObject({ size: 0 });
    expect(JSON.stringify(count!.query)).toContain('{"term":{"words":{"value":"docker"}}}');
  });

  it('retries an _msearch whose search the node refused with a 429', async () => {
    const typo = { q: 'dokcer', page: 1, limit: 1, sort: 'relevance' as const };
    nock(ES).post('/skills/_search').query(true).reply(200, page(0), REPLY_HEADERS);
    nock(ES)
      .post('/skills/_search')
      .query(true)
      .reply(200, { suggest: spellings('dokcer', [['docker', 12]]) }, REPLY_HEADERS);
    const refused = { error: { type: 'es_rejected_execution_exception', reason: 'rejected execution' }, status: 429 };
    nock(ES)
      .post('/skills/_msearch')
      .query(true)
      .reply(200, { took: 1, responses: [page(1), refused] }, REPLY_HEADERS);
    nock(ES)
      .post('/skills/_msearch')
      .query(true)
      .reply(200, { took: 1, responses: [page(1), page(12)] }, REPLY_HEADERS);
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
    const details = {
      publisher: 'Acme',
      release: '2.1.0',
      license: 'MIT',
      repositoryUrl: 'https://git.example/a',
      homepageUrl: null,
      downloads: 1234,
    };
    nock(ES)
      .post('/skills/_search')
      .query(true)
      .reply(
        200,
        { ...page(7), hits: { ...page(7).hits, hits: [{ ...hit, _source: { ...hit._source, ...details } }] } },
        REPLY_HEADERS,
      );
    const { items } = await sut.search(query);
    expect(items[0]).toMatchObject({
      publisher: 'Acme',
      version: '2.1.0',
      license: 'MIT',
      repositoryUrl: 'https://git.example/a',
      homepageUrl: null,
      downloads: 1234,
    });
  });

  it('answers facets from the terms aggregations, counts capped like the total', async () => {
    const faceted = { page: 1, limit: 1, sort: 'newest' as const, facets: ['category' as const, 'type' as const] };
    const aggregations = {
      category: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [
          { key: 'devops', doc_count: 12_000 },
          { key: 'data', doc_count: 3 },
        ],
      },
      type: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 'skill', doc_count: 12_003 }] },
    };
    nock(ES)
      .post('/skills/_search', JSON.parse(JSON.stringify({ ...buildSearchRequest(faceted), ...shown })))
      .query(true)
      .reply(200, { ...page(10_000), aggregations }, REPLY_HEADERS);
    await expect(sut.search(faceted)).resolves.toMatchObject({
      facets: {
        category: [
          { value: 'devops', count: 10_000 },
          { value: 'data', count: 3 },
        ],
        type: [{ value: 'skill', count: 10_000 }],
      },
    });
  });

  it('asks nothing of the cluster for a query with no word', async () => {
    await expect(sut.search({ q: '🚀 ✨', page: 1, limit: 20, sort: 'relevance', facets: ['type'] })).resolves.toEqual({
      items: [],
      total: 0,
      facets: { type: [] },
    });
  });

  it('retries after a 429 and answers from the second attempt', async () => {
    const browse = { page: 1, limit: 1, sort: 'newest' as const };
    nock(ES)
      .post('/skills/_search')
      .query(true)
      .reply(
        429,
        { error: { type: 'es_rejected_execution_exception', reason: 'rejected execution' }, status: 429 },
        REPLY_HEADERS,
      );
    nock(ES).post('/skills/_search').query(true).reply(200, page(7), REPLY_HEADERS);
    await expect(sut.search(browse)).resolves.toMatchObject({ total: 7 });
  });

  it('gives up after the retries with a 503 for the caller', async () => {
    nock(ES)
      .post('/skills/_search')
      .query(true)
      .times(3)
      .reply(503, { error: { type: 'unavailable_shards_exception', reason: 'no shards' }, status: 503 }, REPLY_HEADERS);
    await expect(sut.search(query)).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});
