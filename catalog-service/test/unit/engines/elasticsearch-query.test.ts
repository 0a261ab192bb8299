/**
 * The bodies the Elasticsearch engine sends, built by pure functions: what
 * each must hold for the node to answer as docs/elasticsearch.md says. What
 * the node answers is proven on real nodes (elasticsearch-live.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { NO_DETAILS, type CatalogItemState } from '@skills/common';
import { indexDefinition, INDEX_SCHEMA, versionedIndexName } from '../../../src/engines/elasticsearch/index-mapping';
import { idKeys, toDocument } from '../../../src/engines/elasticsearch/item-document';
import {
  buildSearchRequest,
  buildSpellingRequest,
  SPELLINGS_PER_WORD,
  type Spellings,
  type TextPlan,
} from '../../../src/engines/elasticsearch/query-builder';
import { queryTerms } from '../../../src/domain/text-analysis';

const ACTIVE_PUBLIC = [{ term: { status: 'active' } }, { term: { visibility: 'public' } }];
/** A query that names no verdict still lists every searchable one: never `malicious`. */
const ANY_TRUST = { terms: { verdict: ['clean', 'suspicious', 'unscanned'] } };
const plan = (q: string, spellings?: Spellings): TextPlan => ({
  words: queryTerms(q),
  key: q,
  ...(spellings ? { spellings } : {}),
});
const relevance = { page: 1, limit: 20, sort: 'relevance' as const };

/** Every leaf query of a body, by its kind: what Elasticsearch counts against its clause limit. */
function leaves(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => leaves(n, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (['term', 'terms', 'prefix', 'fuzzy'].includes(key)) found.push(key);
      else leaves(value, found);
    }
  }
  return found;
}

describe('buildSearchRequest', () => {
  it('requires every word (a dis_max of its forms), multiplies by the stored popularity, and adds one of the exclusive name bonuses', () => {
    const body = buildSearchRequest({ ...relevance, q: 'kube deploy' }, plan('kube deploy'));
    const text = (
      body.query as { bool: { filter: unknown; must: Array<{ bool: { must: unknown[]; should: unknown[] } }> } }
    ).bool;
    // only searchable items carry words: no filter every one of them passes (status, visibility, every verdict)
    expect(text.filter).toEqual([]);
    const [scored] = text.must[0]!.bool.must as Array<{
      function_score: { query: { bool: { must: unknown[] } }; functions: unknown; boost_mode: string };
    }>;
    expect(scored!.function_score.functions).toEqual([{ field_value_factor: { field: 'popularity', missing: 1 } }]);
    expect(scored!.function_score.boost_mode).toBe('multiply');
    expect(scored!.function_score.query.bool.must).toEqual([
      {
        dis_max: {
          tie_breaker: 0,
          queries: [{ term: { words: { value: 'kube' } } }, { term: { stems: { value: 'kube', boost: 0.9 } } }],
        },
      },
      {
        dis_max: {
          tie_breaker: 0,
          queries: [
            { term: { words: { value: 'deploy' } } },
            { term: { stems: { value: 'deploy', boost: 0.9 } } },
            { prefix: { vocabulary: { value: 'deploy', boost: 0.6 } } },
          ],
        },
      },
    ]);
    const bonuses = JSON.stringify(text.must[0]!.bool.should);
    expect(bonuses).toContain('{"term":{"exactKey":"kube deploy"}}');
    // "the query begins the name": its words in place, the last one as a prefix
    expect(bonuses).toContain(
      '"filter":[{"term":{"namePositions":"0:kube"}},{"prefix":{"namePositions":{"value":"1:deploy"}}}]',
    );
    // the first rule an item meets gives its bonus: exact, then the name begun (its stored bonus), else 0
    const [bonus] = text.must[0]!.bool.should as Array<{
      function_score: { functions: Array<Record<string, unknown>>; score_mode: string };
    }>;
    expect(bonus!.function_score.score_mode).toBe('first');
    expect(bonus!.function_score.functions.map(({ filter: _, ...score }) => score)).toEqual([
      { weight: 1000 },
      { field_value_factor: { field: 'leadBonus', missing: 0 } },
      { weight: 0 },
    ]);
    // no typo clause and no query the cluster may call expensive outside a typo run
    expect(leaves(body.query).filter((kind) => kind === 'fuzzy')).toEqual([]);
  });

  it('leaves out the completion of a last word of one letter or of more than 19 (index_prefixes bounds)', () => {
    const one = JSON.stringify(buildSearchRequest({ ...relevance, q: 'a' }, plan('a')).query);
    expect(one).not.toContain('prefix');
    expect(one).toContain('{"term":{"words":{"value":"a"}}}');
    const long = 'abcdefghijklmnopqrst';
    const longQuery = JSON.stringify(buildSearchRequest({ ...relevance, q: long }, plan(long)).query);
    expect(longQuery).not.toContain('"prefix"');
    expect(longQuery).toContain(`{"term":{"words":{"value":"${long}"}}}`);
    // two letters, the fewest index_prefixes holds: the completion is there
    expect(JSON.stringify(buildSearchRequest({ ...relevance, q: 'ku' }, plan('ku')).query)).toContain(
      '{"prefix":{"vocabulary":{"value":"ku","boost":0.6}}}',
    );
  });

  it('keeps the filters a word match does not imply: some verdicts, a category', () => {
    const body = buildSearchRequest({ ...relevance, q: 'kube', category: 'devops', trust: ['clean'] }, plan('kube'));
    expect((body.query as { bool: { filter: unknown } }).bool.filter).toEqual([
      { term: { category: 'devops' } },
      { terms: { verdict: ['clean'] } },
    ]);
  });

  it('in a typo run, adds each spelling as a term of its word and a misspelt-name bonus, never a fuzzy clause, far below the 1,024-clause limit', () => {
    const q = 'kubrenetse deployer pipelines monitoring dashboards configuration templates generator';
    const forms = (word: string) => ({
      oneEdit: Array.from({ length: Math.ceil(SPELLINGS_PER_WORD / 2) }, (_, i) => `${word}${i}`),
      twoEdits: Array.from({ length: Math.floor(SPELLINGS_PER_WORD / 2) }, (_, i) => `${word}x${i}`),
    });
    const spellings = new Map(q.split(' ').map((word) => [word, forms(word)]));
    const body = buildSearchRequest({ ...relevance, q }, plan(q, spellings));
    const query = JSON.stringify(body.query);
    expect(query).toContain('{"term":{"words":{"value":"kubrenetse0","boost":0.5}}}');
    expect(query).toContain('{"term":{"words":{"value":"kubrenetsex0","boost":0.4}}}');
    // the misspelt name: each position's word or one of its spellings, as many words as the key
    expect(query).toContain('{"terms":{"namePositions":["0:kubrenetse","0:kubrenetse0"');
    expect(query).toContain('"nameWordCount":8');
    expect(leaves(body.query).filter((kind) => kind === 'fuzzy')).toEqual([]);
    expect(leaves(body.query).length).toBeLessThan(1_024);
    // outside a typo run, no spelling and no misspelt-name rule
    expect(JSON.stringify(buildSearchRequest({ ...relevance, q }, plan(q)).query)).not.toContain('nameWordCount');
  });

  it('asks the term suggester alone, once per word, within its own typo budget, for more frequent spellings only, with a frequency bound no word reaches', () => {
    const { suggest, ...rest } = buildSpellingRequest(['lamp', 'kubrenetse']);
    // no hit and no total: the suggester's answer is all that is read
    expect(rest).toEqual({ size: 0, track_total_hits: false, query: { match_none: {} } });
    const term = (text: string, maxEdits: number) => ({
      text,
      term: {
        field: 'words',
        suggest_mode: 'popular',
        max_edits: maxEdits,
        prefix_length: 0,
        min_word_length: 4,
        max_term_freq: 2 ** 31 - 1,
        size: SPELLINGS_PER_WORD,
        sort: 'frequency',
        string_distance: 'damerau_levenshtein',
      },
    });
    expect(suggest).toEqual({ w0: term('lamp', 1), w1: term('kubrenetse', 2) });
  });

  it('without text lists only active public items, newest first, even when relevance is asked', () => {
    const body = buildSearchRequest({ page: 1, limit: 20, sort: 'relevance' });
    expect(body.query).toEqual({ bool: { filter: [...ACTIVE_PUBLIC, ANY_TRUST] } });
    expect(body.sort).toEqual([
      { updatedAt: { order: 'desc' } },
      { idHigh: { order: 'asc' } },
      { idLow: { order: 'asc' } },
    ]);
  });

  it('sorts by the lower-cased name, by downloads, or newest, each then by id; every tag is a filter', () => {
    expect(buildSearchRequest({ page: 1, limit: 20, sort: 'name' }).sort).toEqual([
      { nameSort: { order: 'asc' } },
      { idHigh: { order: 'asc' } },
      { idLow: { order: 'asc' } },
    ]);
    expect(buildSearchRequest({ page: 1, limit: 20, sort: 'popular' }).sort).toEqual([
      { downloads: { order: 'desc' } },
      { updatedAt: { order: 'desc' } },
      { idHigh: { order: 'asc' } },
      { idLow: { order: 'asc' } },
    ]);
    expect(buildSearchRequest({ tags: ['docker', 'lint'], page: 1, limit: 20, sort: 'newest' }).query).toEqual({
      bool: { filter: [...ACTIVE_PUBLIC, { term: { tags: 'docker' } }, { term: { tags: 'lint' } }, ANY_TRUST] },
    });
  });

  it('filters on the verdicts asked and on the publisher’s verification, in filter context', () => {
    const body = buildSearchRequest({
      trust: ['clean', 'unscanned'],
      verifiedPublisher: true,
      page: 1,
      limit: 20,
      sort: 'newest',
    });
    // https://elastic.co/docs/reference/query-languages/query-dsl/query-dsl-terms-query
    expect(body.query).toEqual({
      bool: {
        filter: [
          ...ACTIVE_PUBLIC,
          { terms: { verdict: ['clean', 'unscanned'] } },
          { term: { publisherVerified: true } },
        ],
      },
    });
  });

  it('adds a workspace policy’s publishers, licences and denied slugs as filters, the slugs refused', () => {
    const policy = { publishers: ['acme'], licenses: ['apache-2.0', 'mit'], deniedSlugs: ['pdf-evil'] };
    const body = buildSearchRequest({ trust: ['clean'], policy, page: 1, limit: 20, sort: 'newest' });
    // https://elastic.co/docs/reference/query-languages/query-dsl/query-dsl-bool-query
    expect(body.query).toEqual({
      bool: {
        filter: [
          ...ACTIVE_PUBLIC,
          { terms: { verdict: ['clean'] } },
          { terms: { publisher: ['acme'] } },
          { terms: { licenseKey: ['apache-2.0', 'mit'] } },
          { bool: { must_not: [{ terms: { slug: ['pdf-evil'] } }] } },
        ],
      },
    });
  });

  it('stores the licence lower-cased beside it as written, for a policy’s licences to match', () => {
    const licensed = (license: string | null) => toDocument(itemStateFor({ details: { ...NO_DETAILS, license } }));
    expect(licensed(' Apache-2.0 ')).toMatchObject({ license: ' Apache-2.0 ', licenseKey: 'apache-2.0' });
    expect(licensed(null)).toMatchObject({ license: null, licenseKey: null });
    expect(indexDefinition().mappings?.properties?.licenseKey).toEqual({ type: 'keyword', doc_values: false });
  });

  it('counts facets with a terms aggregation per field, most frequent first then by value', () => {
    expect(buildSearchRequest({ facets: ['category', 'type'], page: 1, limit: 20, sort: 'newest' }).aggs).toEqual({
      // an item with no category counts under "", as in the memory engine
      category: { terms: { field: 'category', size: 100, order: [{ _count: 'desc' }, { _key: 'asc' }], missing: '' } },
      type: { terms: { field: 'type', size: 100, order: [{ _count: 'desc' }, { _key: 'asc' }] } },
    });
    expect(
      buildSearchRequest({ facets: ['trust', 'verifiedPublisher'], page: 1, limit: 20, sort: 'newest' }).aggs,
    ).toEqual({
      trust: { terms: { field: 'verdict', size: 100, order: [{ _count: 'desc' }, { _key: 'asc' }] } },
      // a boolean's buckets are keyed 0 and 1 and named by key_as_string: "false" before "true", as the memory engine orders them
      verifiedPublisher: {
        terms: { field: 'publisherVerified', size: 100, order: [{ _count: 'desc' }, { _key: 'asc' }] },
      },
    });
  });
});

describe('indexDefinition and toDocument', () => {
  it('maps pre-analysed words and stems for the whitespace analyzer, keeps text in _source only, one primary shard, strict', () => {
    const definition = indexDefinition();
    // segments sorted in the browse order: newest first, then the id
    expect(definition.settings).toEqual({
      number_of_shards: 1,
      index: { sort: { field: ['updatedAt', 'idHigh', 'idLow'], order: ['desc', 'asc', 'asc'] } },
    });
    expect(definition.mappings).toMatchObject({
      _meta: { schema: INDEX_SCHEMA },
      dynamic: 'strict',
      properties: {
        name: { type: 'text', index: false },
        description: { type: 'text', index: false },
        // https://elastic.co/docs/reference/elasticsearch/mapping-reference/index-prefixes
        words: { type: 'text', analyzer: 'whitespace', index_options: 'freqs' },
        stems: { type: 'text', analyzer: 'whitespace', index_options: 'freqs' },
        // matched by prefix only: no norms
        vocabulary: {
          type: 'text',
          analyzer: 'whitespace',
          index_options: 'docs',
          norms: false,
          index_prefixes: { min_chars: 2, max_chars: 19 },
        },
        namePositions: {
          type: 'text',
          analyzer: 'whitespace',
          index_options: 'docs',
          norms: false,
          index_prefixes: { min_chars: 2, max_chars: 19 },
        },
        // sorted (and the version read) by doc value, never matched: no points index
        idHigh: { type: 'long', index: false },
        idLow: { type: 'long', index: false },
        version: { type: 'long', index: false },
        license: { type: 'keyword', index: false, doc_values: false },
        exactKey: { type: 'keyword', doc_values: false },
        leadBonus: { type: 'float', index: false },
        popularity: { type: 'float', index: false },
        nameSort: { type: 'keyword' },
        verdict: { type: 'keyword' },
        publisherVerified: { type: 'boolean' },
        latestVersion: { type: 'keyword', index: false, doc_values: false },
      },
    });
    // nothing an analysis or mapper module provides: the integration-test node has none
    expect(JSON.stringify(definition)).not.toMatch(/rank_feature|search_as_you_type|"stemmer"|edge_ngram|"tokenizer"/);
  });

  it('stores a searchable item with its words repeated by field weight, and a tombstone with its state only', () => {
    const state = {
      id: '5b0c7c1e-2f57-4c39-9a8e-1f0d2a3b4c5d',
      slug: 'git-helper',
      name: 'Git-Helper',
      description: 'Helps with git',
      type: 'skill' as const,
      category: 'devops',
      tags: ['vcs'],
      status: 'active' as const,
      visibility: 'public' as const,
      updatedAt: '2026-11-20T10:00:00.000Z',
      version: 7,
      details: { ...NO_DETAILS, downloads: 9_999 },
    };
    const fields = {
      publisher: null,
      release: null,
      license: null,
      licenseKey: null,
      repositoryUrl: null,
      homepageUrl: null,
      downloads: 9_999,
      // a state from before trust existed: unscanned, unverified
      latestVersion: null,
      verdict: 'unscanned',
      publisherVerified: false,
    };
    const { details: _details, ...plain } = state;
    const document = toDocument(state);
    const times = (word: string, n: number) => Array<string>(n).fill(word);
    expect(document).toMatchObject({
      ...plain,
      ...fields,
      // name ×5, description ×2, tags ×1: the field weights 1, 0.4, 0.2
      words: [
        ...times('git', 5),
        ...times('helper', 5),
        ...times('helps', 2),
        ...times('with', 2),
        ...times('git', 2),
        'vcs',
      ].join(' '),
      stems: [
        ...times('git', 5),
        ...times('helper', 5),
        ...times('help', 2),
        ...times('with', 2),
        ...times('git', 2),
        'vcs',
      ].join(' '),
      exactKey: 'git helper',
      slugKey: 'git helper',
      vocabulary: 'git helper helps with vcs',
      namePositions: '0:git 1:helper',
      // 5b0c7c1e2f574 and c399a8e1f0d2a as numbers: the id's order
      idHigh: 0x5b0c7c1e2f574,
      idLow: 0xc399a8e1f0d2a,
      slugPositions: ['0:git', '1:helper'],
      nameWordCount: 2,
      slugWordCount: 2,
      nameSort: 'git-helper',
    });
    expect(document.popularity).toBeGreaterThan(1);
    expect(toDocument({ ...state, status: 'deleted' })).toEqual({
      ...plain,
      ...fields,
      idHigh: 0x5b0c7c1e2f574,
      idLow: 0xc399a8e1f0d2a,
      status: 'deleted',
    });
  });

  it('stores an item’s trust, and a blocked item as a tombstone that no word can match', () => {
    const state = itemStateFor({
      trust: { latestVersion: '1.2.0', verdict: 'clean', publisherVerified: true, blockedReason: null },
    });
    expect(toDocument(state)).toMatchObject({
      latestVersion: '1.2.0',
      verdict: 'clean',
      publisherVerified: true,
      words: 'pdf pdf pdf pdf pdf',
    });
    const blocked = toDocument({
      ...state,
      trust: { latestVersion: '1.3.0', verdict: 'malicious', publisherVerified: true, blockedReason: 'stealer' },
    });
    expect(blocked).toMatchObject({ latestVersion: '1.3.0', verdict: 'malicious', status: 'active' });
    expect(blocked.words).toBeUndefined();
  });

  it('gives ids numbers that order as the ids do (the tie-break of every order)', () => {
    const ids = Array.from({ length: 2_000 }, () => randomUUID());
    // and ids equal in their first 13 digits, told apart by the next 13 (one 52-bit number would tie them)
    ids.push(
      '00000000-0000-4000-8000-000000000000',
      '00000000-0000-4000-8000-100000000000',
      '00000000-0000-4000-9000-000000000000',
    );
    const byString = [...ids].sort();
    const byKeys = [...ids].sort((a, b) => idKeys(a).idHigh - idKeys(b).idHigh || idKeys(a).idLow - idKeys(b).idLow);
    expect(byKeys).toEqual(byString);
  });

  it('names versioned indices after the alias and the time', () => {
    expect(versionedIndexName('skills', new Date(1_700_000_000_000))).toBe('skills-v1700000000000');
  });
});

function itemStateFor(overrides: Partial<CatalogItemState>): CatalogItemState {
  return {
    id: '5b0c7c1e-2f57-4c39-9a8e-1f0d2a3b4c5d',
    slug: null,
    name: 'Pdf',
    description: '',
    type: 'skill',
    category: null,
    tags: [],
    status: 'active',
    visibility: 'public',
    updatedAt: '2026-11-20T10:00:00.000Z',
    version: 1,
    ...overrides,
  };
}
