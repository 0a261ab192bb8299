/**
 * The exact bodies the Elasticsearch engine sends, built by pure functions.
 * Each case names the reference the body follows; the engine conformance
 * suite (fake node here, a live cluster with ELASTICSEARCH_URL) checks what
 * the cluster answers to them.
 */
import { NO_DETAILS } from '@skills/common';
import { indexDefinition, INDEX_SCHEMA, versionedIndexName } from '../../src/engines/elasticsearch/index-mapping';
import { toDocument } from '../../src/engines/elasticsearch/item-document';
import { buildSearchRequest, LEADING_WORD_SCRIPT, type TextPlan } from '../../src/engines/elasticsearch/query-builder';
import { MAX_SCORED_TERMS, planGroups, typoFormsOf, type WordTerms } from '../../src/engines/elasticsearch/query-plan';
import { buildExpandRequest, buildFrequencyRequest, buildSuggestRequest, COMPLETIONS_MAX, FORMS_MAX, SUGGESTIONS_MAX } from '../../src/engines/elasticsearch/term-requests';
import { idf } from '../../src/domain/ranking';
import { queryTerms, stemOf } from '../../src/domain/text-analysis';

const SOURCE = ['id', 'slug', 'name', 'description', 'type', 'category', 'tags', 'publisher', 'release', 'license', 'repositoryUrl', 'homepageUrl', 'downloads', 'updatedAt'];
const ACTIVE_PUBLIC = [{ term: { status: 'active' } }, { term: { visibility: 'public' } }];
const RELEVANCE = [{ _score: { order: 'desc' } }, { updatedAt: { order: 'desc' } }, { id: { order: 'asc' } }];
const EXACT = (key: string) => ({ bool: { should: [{ term: { exactKey: key } }, { term: { slugKey: key } }], minimum_should_match: 1 } });
const feature = (term: string, boost: number) => ({ rank_feature: { field: `terms.${term}`, linear: {}, boost } });
const none = (): WordTerms => ({ forms: new Map(), completions: new Map(), moreForms: false, moreCompletions: false });

describe('buildExpandRequest', () => {
  it('counts the searchable items and lists each word stem forms and the last word completions with their frequencies', () => {
    // Porter2 (domain/text-analysis.ts): "generating" → "generat"; stop words before the last word are gone
    const words = queryTerms('the generating kube');
    expect(words).toEqual([{ text: 'generating', prefix: false }, { text: 'kube', prefix: true }]);
    const stems = words.map((w) => stemOf(w.text));
    const order = [{ _count: 'desc' }, { _key: 'asc' }];
    expect(buildExpandRequest(words, stems)).toEqual({
      size: 0,
      track_total_hits: false,
      query: {
        constant_score: {
          filter: {
            bool: { should: [{ prefix: { stemForms: 'generat/' } }, { prefix: { stemForms: 'kube/' } }, { prefix: { words: 'kube' } }], minimum_should_match: 1 },
          },
        },
      },
      aggs: {
        // the global aggregation ignores the query: https://elastic.co/docs/reference/aggregations/search-aggregations-bucket-global-aggregation
        live: { global: {}, aggs: { searchable: { filter: { bool: { filter: ACTIVE_PUBLIC } } } } },
        forms0: {
          filter: { prefix: { stemForms: 'generat/' } },
          aggs: { terms: { terms: { field: 'stemForms', include: 'generat/.*', size: FORMS_MAX, order } } },
        },
        forms1: { filter: { prefix: { stemForms: 'kube/' } }, aggs: { terms: { terms: { field: 'stemForms', include: 'kube/.*', size: FORMS_MAX, order } } } },
        completions1: { filter: { prefix: { words: 'kube' } }, aggs: { terms: { terms: { field: 'words', include: 'kube.*', size: COMPLETIONS_MAX, order } } } },
      },
    });
  });
});

describe('buildSuggestRequest and buildFrequencyRequest', () => {
  it('asks the term suggester for every term within the typo budget, any initial, however frequent the word', () => {
    // https://elastic.co/docs/reference/elasticsearch/rest-apis/search-suggesters#term-suggester
    const term = (field: string, maxEdits: number) => ({
      field,
      size: SUGGESTIONS_MAX,
      suggest_mode: 'always',
      max_edits: maxEdits,
      prefix_length: 0,
      min_word_length: 4,
      max_term_freq: 1_000_000_000,
      sort: 'score',
    });
    expect(buildSuggestRequest(['dokcer', 'kubrenetse'])).toEqual({
      size: 0,
      track_total_hits: false,
      suggest: {
        words0: { text: 'dokcer', term: term('words', 1) },
        keys0: { text: 'dokcer', term: term('keyWords', 1) },
        words1: { text: 'kubrenetse', term: term('words', 2) },
        keys1: { text: 'kubrenetse', term: term('keyWords', 2) },
      },
    });
  });

  it('counts chosen terms with one term filter each', () => {
    // https://elastic.co/docs/reference/aggregations/search-aggregations-bucket-filters-aggregation
    expect(buildFrequencyRequest(['docker', 'docket'])).toEqual({
      size: 0,
      track_total_hits: false,
      aggs: { frequencies: { filters: { filters: { '0': { term: { words: 'docker' } }, '1': { term: { words: 'docket' } } } } } },
    });
  });
});

describe('planGroups', () => {
  it('weighs the word 1, its other forms 0.9, completions 0.5–0.85 and typos 0.5 / 0.4, times idf, in float32', () => {
    const words = queryTerms('deploying kube');
    const found: WordTerms[] = [
      { ...none(), forms: new Map([['deploying', 3], ['deploy', 9]]) },
      { ...none(), forms: new Map([['kube', 2]]), completions: new Map([['kube', 2], ['kubernetes', 40]]), oneEdit: new Map([['cube', 5]]) },
    ];
    const groups = planGroups(words, words.map((w) => stemOf(w.text)), found, 100)!;
    const factor = (weight: number, df: number) => Math.fround(weight * idf(df, 100));
    expect(groups.map((g) => g.terms)).toEqual([
      [{ term: 'deploying', factor: factor(1, 3) }, { term: 'deploy', factor: factor(0.9, 9) }],
      [
        { term: 'kube', factor: factor(1, 2) },
        { term: 'cube', factor: factor(0.5, 5) },
        { term: 'kubernetes', factor: factor(0.5 + (0.35 * 4) / 10, 40) },
      ],
    ]);
  });

  it('matches nothing when a word has no term, and keeps a huge prefix within the clause budget', () => {
    const words = queryTerms('zzz re');
    expect(planGroups(words, words.map((w) => stemOf(w.text)), [none(), none()], 10)).toBeUndefined();
    const many = new Map(Array.from({ length: 2_000 }, (_, i) => [`re${i}`, 1 + (i % 50)] as const));
    const [group] = planGroups([{ text: 're', prefix: true }], ['re'], [{ ...none(), completions: many }], 5_000)!;
    expect(group!.terms).toHaveLength(MAX_SCORED_TERMS);
    expect(group!.completionsFallback).toBe(true);
  });

  it('keeps the typo forms the memory dictionary would find: one edit, or two from 8 letters with the same initial', () => {
    expect(typoFormsOf('dokcer', ['docker', 'dockers', 'dokcers', 'dok3er', 'dockerize'])).toEqual({ oneEdit: ['docker', 'dokcers'], twoEdits: [] });
    expect(typoFormsOf('kubrenetse', ['kubernetes', 'rubernetes', 'kubernete'])).toEqual({ oneEdit: [], twoEdits: ['kubernetes', 'kubernete'] });
    expect(typoFormsOf('k8s', ['k9s'])).toEqual({ oneEdit: [], twoEdits: [] });
  });
});

describe('buildSearchRequest', () => {
  const group = (text: string, terms: Array<[string, number]>, prefix = false) => ({
    word: { text, prefix },
    stem: stemOf(text),
    terms: terms.map(([term, factor]) => ({ term, factor })),
    formsFallback: false,
    completionsFallback: false,
  });

  it('requires every word in any field: a dis_max of rank_feature clauses per word, the name bonuses optional and exclusive', () => {
    const plan: TextPlan = { groups: [group('kubernetes', [['kubernetes', 2.5]]), group('containers', [['containers', 1.5], ['container', 1.25]], true)], key: 'kubernetes containers', typos: false };
    const body = buildSearchRequest({ q: 'kubernetes containers', category: 'devops', page: 2, limit: 10, sort: 'relevance' }, plan);
    expect(body).toEqual({
      from: 10,
      size: 10,
      track_total_hits: 10_000,
      _source: SOURCE,
      query: {
        bool: {
          filter: [...ACTIVE_PUBLIC, { term: { category: 'devops' } }],
          must: [
            {
              bool: {
                // https://elastic.co/docs/reference/query-languages/query-dsl/query-dsl-rank-feature-query (linear)
                // https://elastic.co/docs/reference/query-languages/query-dsl/query-dsl-dis-max-query (tie_breaker 0: the best term)
                must: [feature('kubernetes', 2.5), { dis_max: { queries: [feature('containers', 1.5), feature('container', 1.25)], tie_breaker: 0 } }],
                should: [
                  { constant_score: { filter: EXACT('kubernetes containers'), boost: 1000 } },
                  {
                    // https://elastic.co/docs/reference/query-languages/query-dsl/query-dsl-function-score-query#function-field-value-factor
                    function_score: {
                      query: { bool: { filter: [{ prefix: { exactKey: 'kubernetes containers' } }], must_not: [EXACT('kubernetes containers')] } },
                      functions: [{ field_value_factor: { field: 'leadBonus' } }],
                      boost_mode: 'replace',
                    },
                  },
                ],
              },
            },
          ],
        },
      },
      sort: RELEVANCE,
    });
  });

  it('scores a name one word begins by its first word and bonus (script_score), and everything else by its best term', () => {
    const plan: TextPlan = { groups: [group('vit', [['vite', 3], ['vitesse', 4]], true)], key: 'vit', typos: false };
    const text = buildSearchRequest({ q: 'vit', page: 1, limit: 20, sort: 'relevance' }, plan).query!.bool!.must;
    const begun = { bool: { filter: [{ prefix: { exactKey: 'vit' } }], must_not: [EXACT('vit')] } };
    expect(text).toEqual([
      {
        bool: {
          should: [
            {
              bool: {
                must: [{ dis_max: { queries: [feature('vite', 3), feature('vitesse', 4)], tie_breaker: 0 } }],
                must_not: [begun],
                should: [{ constant_score: { filter: EXACT('vit'), boost: 1000 } }],
              },
            },
            // https://elastic.co/docs/reference/query-languages/query-dsl/query-dsl-script-score-query
            { script_score: { query: begun, script: { source: LEADING_WORD_SCRIPT, params: { f: { vite: 3, vitesse: 4 } } } } },
          ],
          minimum_should_match: 1,
        },
      },
    ]);
  });

  it('in a typo run, gives a name spelt with typos word by word its bonus, before a name the query begins', () => {
    const plan: TextPlan = {
      groups: [group('then', [['then', 1]]), group('reqeust', [['request', 0.7]], true)],
      key: 'then reqeust',
      typos: true,
      nearWords: [['then', 'them'], ['reqeust', 'request']],
    };
    const should = (buildSearchRequest({ q: 'then reqeust', page: 1, limit: 20, sort: 'relevance' }, plan).query!.bool!.must as Array<{ bool: { should: unknown[] } }>)[0]!.bool.should;
    const byPosition = (positions: string, count: string) => ({
      bool: { filter: [{ terms: { [positions]: ['0:then', '0:them'] } }, { terms: { [positions]: ['1:reqeust', '1:request'] } }, { term: { [count]: 2 } }] },
    });
    const misspelt = { bool: { should: [byPosition('namePositions', 'nameWordCount'), byPosition('slugPositions', 'slugWordCount')], minimum_should_match: 1 } };
    expect(should).toEqual([
      { constant_score: { filter: EXACT('then reqeust'), boost: 1000 } },
      { constant_score: { filter: { bool: { filter: [misspelt], must_not: [EXACT('then reqeust')] } }, boost: 200 } },
      {
        function_score: {
          query: { bool: { filter: [{ prefix: { exactKey: 'then reqeust' } }], must_not: [EXACT('then reqeust'), misspelt] } },
          functions: [{ field_value_factor: { field: 'leadBonus' } }],
          boost_mode: 'replace',
        },
      },
    ]);
  });

  it('gives a one-letter query no name-begins clause', () => {
    const plan: TextPlan = { groups: [group('a', [['a', 1]], true)], key: 'a', typos: false };
    const should = (buildSearchRequest({ q: 'a', page: 1, limit: 20, sort: 'relevance' }, plan).query!.bool!.must as Array<{ bool: { should: unknown[] } }>)[0]!.bool.should;
    expect(should).toEqual([{ constant_score: { filter: EXACT('a'), boost: 1000 } }]);
  });

  it('matches the words left out of a trimmed list with no score', () => {
    const trimmed = { ...group('re', [['react', 2]], true), formsFallback: true, completionsFallback: true };
    const must = buildSearchRequest({ q: 'lint re', page: 1, limit: 20, sort: 'relevance' }, { groups: [group('lint', [['lint', 1]]), trimmed], key: 'lint re', typos: false }).query!.bool!.must;
    expect((must as Array<{ bool: { must: unknown[] } }>)[0]!.bool.must[1]).toEqual({
      dis_max: {
        queries: [feature('react', 2), { constant_score: { filter: { prefix: { stemForms: 're/' } }, boost: 0 } }, { constant_score: { filter: { prefix: { words: 're' } }, boost: 0 } }],
        tie_breaker: 0,
      },
    });
  });

  it('without text lists only active public items, newest first, even when relevance is asked', () => {
    const body = buildSearchRequest({ page: 1, limit: 20, sort: 'relevance' });
    expect(body.query).toEqual({ bool: { filter: ACTIVE_PUBLIC } });
    expect(body.sort).toEqual([{ updatedAt: { order: 'desc' } }, { id: { order: 'asc' } }]);
  });

  it('sorts by the lower-cased name, by downloads, or newest, each then by id; every tag is a filter', () => {
    expect(buildSearchRequest({ page: 1, limit: 20, sort: 'name' }).sort).toEqual([{ nameSort: { order: 'asc' } }, { id: { order: 'asc' } }]);
    expect(buildSearchRequest({ page: 1, limit: 20, sort: 'popular' }).sort).toEqual([{ downloads: { order: 'desc' } }, { updatedAt: { order: 'desc' } }, { id: { order: 'asc' } }]);
    expect(buildSearchRequest({ tags: ['docker', 'lint'], page: 1, limit: 20, sort: 'newest' }).query).toEqual({
      bool: { filter: [...ACTIVE_PUBLIC, { term: { tags: 'docker' } }, { term: { tags: 'lint' } }] },
    });
  });

  it('counts facets with a terms aggregation per field, most frequent first then by value', () => {
    expect(buildSearchRequest({ facets: ['category', 'type'], page: 1, limit: 20, sort: 'newest' }).aggs).toEqual({
      category: { terms: { field: 'category', size: 100, order: [{ _count: 'desc' }, { _key: 'asc' }] } },
      type: { terms: { field: 'type', size: 100, order: [{ _count: 'desc' }, { _key: 'asc' }] } },
    });
  });
});

describe('indexDefinition and toDocument', () => {
  it('maps the analysed fields the queries read, keeps text in _source only, one primary shard, strict', () => {
    const definition = indexDefinition();
    expect(definition.settings).toEqual({ number_of_shards: 1 });
    expect(definition.mappings).toMatchObject({
      _meta: { schema: INDEX_SCHEMA },
      dynamic: 'strict',
      properties: {
        name: { type: 'text', index: false },
        description: { type: 'text', index: false },
        // https://elastic.co/docs/reference/elasticsearch/mapping-reference/rank-features
        terms: { type: 'rank_features' },
        words: { type: 'keyword' },
        stemForms: { type: 'keyword' },
        keyWords: { type: 'keyword' },
        exactKey: { type: 'keyword', doc_values: false },
        leadBonus: { type: 'float' },
        leadWeight: { type: 'float' },
        nameSort: { type: 'keyword' },
      },
    });
  });

  it('stores a searchable item with its analysis, and a tombstone with its state only', () => {
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
    const fields = { publisher: null, release: null, license: null, repositoryUrl: null, homepageUrl: null, downloads: 9_999 };
    const { details: _details, ...plain } = state;
    const document = toDocument(state);
    expect(document).toMatchObject({
      ...plain,
      ...fields,
      words: ['git', 'helper', 'helps', 'with', 'vcs'],
      stemForms: ['git/git', 'helper/helper', 'help/helps', 'with/with', 'vcs/vcs'],
      keyWords: ['git', 'helper'],
      exactKey: 'git helper',
      slugKey: 'git helper',
      namePositions: ['0:git', '1:helper'],
      slugPositions: ['0:git', '1:helper'],
      nameWordCount: 2,
      slugWordCount: 2,
      leadTerm: 'git',
      nameSort: 'git-helper',
    });
    expect(Object.keys(document.terms!)).toEqual(['git', 'helper', 'helps', 'with', 'vcs']);
    // a name word outweighs a description word; "git" is in both
    expect(document.terms!.git!).toBeGreaterThan(document.terms!.helper!);
    expect(document.terms!.helper!).toBeGreaterThan(document.terms!.helps!);
    expect(document.leadWeight).toBe(document.terms!.git);
    expect(toDocument({ ...state, status: 'deleted' })).toEqual({ ...plain, ...fields, status: 'deleted' });
  });

  it('names versioned indices after the alias and the time', () => {
    expect(versionedIndexName('skills', new Date(1_700_000_000_000))).toBe('skills-v1700000000000');
  });
});
