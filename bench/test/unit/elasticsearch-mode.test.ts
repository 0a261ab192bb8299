import { BASELINE_FIELDS, baselineSearchBody } from '../../src/elasticsearch-baseline';
import { elasticsearchTargets, ES_BASELINE } from '../../src/elasticsearch-targets';
import { searchPath } from '../../src/query-mix';
import type { ImportResult, LoadResult } from '../../src/stats';

describe('the bare Elasticsearch baseline', () => {
  it("sends the request's words as one multi_match, with its filters and its page", () => {
    const path = searchPath([
      ['q', 'react hook'],
      ['category', 'testing'],
      ['type', 'skill'],
      ['limit', '20'],
      ['page', '3'],
      ['facets', 'category,type'],
    ]);
    expect(baselineSearchBody(path)).toEqual({
      from: 40,
      size: 20,
      query: {
        bool: {
          must: [{ multi_match: { query: 'react hook', fields: ['name^3', 'description'] } }],
          filter: [{ term: { category: 'testing' } }, { term: { type: 'skill' } }],
        },
      },
    });
    expect(BASELINE_FIELDS).toEqual(['name^3', 'description']);
  });

  it('browses with the filters alone when the request has no words', () => {
    expect(
      baselineSearchBody(
        searchPath([
          ['category', 'data'],
          ['limit', '50'],
        ]),
      ),
    ).toEqual({
      from: 0,
      size: 50,
      query: { bool: { must: [], filter: [{ term: { category: 'data' } }] } },
    });
  });
});

describe('the Elasticsearch goals', () => {
  const run = (
    scenario: string,
    connections: number,
    requestsPerSec: number,
    p99Ms: number,
    errors = 0,
  ): LoadResult => ({
    scenario,
    connections,
    requestsPerSec,
    p50Ms: 1,
    p99Ms,
    errors,
    noAnswer: 0,
    requests: requestsPerSec * 10,
  });
  const imported: ImportResult = {
    items: 100_000,
    recordPerSec: 20_000,
    indexPerSec: 10_000,
    activeItems: 99_000,
    searchableAfterImportSec: 4,
    indexSource: 'elasticsearch',
  };
  const gateway = 'search long tail via gateway (cache off)';

  it('reads the ratio and the p99 at the highest connection count, against the bare baseline', () => {
    const targets = elasticsearchTargets(
      [
        run(ES_BASELINE, 1, 100, 5),
        run(gateway, 1, 10, 500),
        run(ES_BASELINE, 64, 1_000, 50),
        run(gateway, 64, 500, 150),
      ],
      imported,
    );
    expect(targets.map((t) => [t.ok, t.measured])).toEqual([
      [true, '50.0 % (500 req/s)'],
      [true, '150.0 ms'],
      [true, '0 errors'],
      [true, '10.0 s (4.0 s after the import answered)'],
    ]);
    expect(targets[0]?.name).toMatch(/at 64 connections/);
  });

  it('misses each goal on its own', () => {
    const targets = elasticsearchTargets([run(ES_BASELINE, 64, 1_000, 50, 1), run(gateway, 64, 499, 151)], {
      ...imported,
      indexPerSec: 6_000,
    });
    expect(targets.map((t) => [t.ok, t.measured])).toEqual([
      [false, '49.9 % (499 req/s)'],
      [false, '151.0 ms'],
      [false, '1 errors'],
      [false, '16.7 s (4.0 s after the import answered)'],
    ]);
  });
});
