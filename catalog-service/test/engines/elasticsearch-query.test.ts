import { indexDefinition, toDocument, versionedIndexName } from '../../src/engines/elasticsearch/index-mapping';
import { buildSearchRequest, buildSuggestRequest } from '../../src/engines/elasticsearch/query-builder';

const SOURCE = ['id', 'slug', 'name', 'description', 'type', 'category', 'tags', 'publisher', 'release', 'license', 'repositoryUrl', 'homepageUrl', 'downloads', 'updatedAt'];
const ACTIVE_PUBLIC = [{ term: { status: 'active' } }, { term: { visibility: 'public' } }];

describe('buildSearchRequest', () => {
  it('searches name (boosted) and description with typo and prefix matching, filters exact, relevance × popularity then newest', () => {
    const body = buildSearchRequest({ q: '  kube deploy ', category: 'devops', type: 'skill', page: 1, limit: 20, sort: 'relevance' });
    expect(body).toEqual({
      from: 0,
      size: 20,
      track_total_hits: 10_000,
      _source: SOURCE,
      query: {
        function_score: {
          query: {
        bool: {
          filter: [...ACTIVE_PUBLIC, { term: { category: 'devops' } }, { term: { type: 'skill' } }],
          must: [
            {
              bool: {
                should: [
                  {
                    multi_match: {
                      query: 'kube deploy',
                      type: 'best_fields',
                      fields: ['name^3', 'description', 'tags^0.5'],
                      operator: 'and',
                      fuzziness: 'AUTO:4,8',
                      prefix_length: 1,
                    },
                  },
                  { match: { 'name.prefix': { query: 'kube deploy', operator: 'and', boost: 3 } } },
                  { match_bool_prefix: { description: { query: 'kube deploy', operator: 'and' } } },
                ],
                minimum_should_match: 1,
              },
            },
          ],
              should: [
                { match: { 'name.sort': { query: 'kube deploy', boost: 1000 } } },
                { term: { slug: { value: 'kube-deploy', boost: 1000 } } },
                { prefix: { slug: { value: 'kube-deploy', boost: 100 } } },
              ],
        },
          },
          functions: [{ weight: 1 }, { field_value_factor: { field: 'popularity', factor: 0.5, missing: 0 } }],
          score_mode: 'sum',
          boost_mode: 'multiply',
        },
      },
      sort: [{ _score: { order: 'desc' } }, { updatedAt: { order: 'desc' } }, { id: { order: 'asc' } }],
    });
  });

  it('without text lists only active public items, newest first, even when relevance is asked', () => {
    const body = buildSearchRequest({ q: '   ', page: 1, limit: 20, sort: 'relevance' });
    expect(body.query).toEqual({ bool: { filter: ACTIVE_PUBLIC } });
    expect(body.sort).toEqual([{ updatedAt: { order: 'desc' } }, { id: { order: 'asc' } }]);
  });

  it('pages with from/size', () => {
    const body = buildSearchRequest({ page: 3, limit: 10, sort: 'newest' });
    expect([body.from, body.size]).toEqual([20, 10]);
  });

  it('sorts by the lowercased name keyword, then id', () => {
    expect(buildSearchRequest({ q: 'git', page: 1, limit: 5, sort: 'name' }).sort).toEqual([
      { 'name.sort': { order: 'asc' } },
      { id: { order: 'asc' } },
    ]);
  });

  it('requires every tag with one term filter each', () => {
    const body = buildSearchRequest({ tags: ['docker', 'lint'], page: 1, limit: 20, sort: 'newest' });
    expect(body.query).toEqual({ bool: { filter: [...ACTIVE_PUBLIC, { term: { tags: 'docker' } }, { term: { tags: 'lint' } }] } });
  });

  it('sorts by downloads on sort=popular, then newest, then id, without scoring', () => {
    const body = buildSearchRequest({ q: 'git', page: 1, limit: 5, sort: 'popular' });
    expect(body.sort).toEqual([{ downloads: { order: 'desc' } }, { updatedAt: { order: 'desc' } }, { id: { order: 'asc' } }]);
    expect(body.query).not.toHaveProperty('function_score');
  });

  it('counts facets with a terms aggregation per field, most frequent first then by value', () => {
    const body = buildSearchRequest({ q: 'git', facets: ['category', 'type'], page: 1, limit: 5, sort: 'relevance' });
    const order = [{ _count: 'desc' }, { _key: 'asc' }];
    expect(body.aggs).toEqual({
      category: { terms: { field: 'category', size: 100, order } },
      type: { terms: { field: 'type', size: 100, order } },
    });
    expect(buildSearchRequest({ q: 'git', page: 1, limit: 5, sort: 'relevance' })).not.toHaveProperty('aggs');
  });

  it('asks the term suggester for more frequent spellings of each word, in name and description words', () => {
    const term = (field: string) => ({
      term: { field, suggest_mode: 'popular', sort: 'frequency', max_edits: 2, prefix_length: 1, min_word_length: 4, size: 5 },
    });
    expect(buildSuggestRequest('dokcer lint')).toEqual({
      size: 0,
      suggest: { text: 'dokcer lint', name: term('name.words'), description: term('description.words') },
    });
  });

  it('sorts newest first with text when asked, ignoring the score', () => {
    expect(buildSearchRequest({ q: 'git', page: 1, limit: 5, sort: 'newest' }).sort).toEqual([
      { updatedAt: { order: 'desc' } },
      { id: { order: 'asc' } },
    ]);
  });
});

describe('indexDefinition', () => {
  it('maps text with the english analyzer, an edge n-gram prefix subfield and keyword filters', () => {
    expect(indexDefinition()).toEqual({
      settings: {
        analysis: {
          filter: { catalog_edge_ngram: { type: 'edge_ngram', min_gram: 2, max_gram: 20 } },
          analyzer: {
            catalog_prefix_index: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding', 'catalog_edge_ngram'] },
            catalog_prefix_search: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] },
          },
          normalizer: { catalog_lowercase: { type: 'custom', filter: ['lowercase', 'asciifolding'] } },
        },
      },
      mappings: {
        dynamic: 'strict',
        properties: {
          id: { type: 'keyword' },
          slug: { type: 'keyword' },
          type: { type: 'keyword' },
          category: { type: 'keyword' },
          tags: { type: 'keyword' },
          status: { type: 'keyword' },
          visibility: { type: 'keyword' },
          updatedAt: { type: 'date' },
          version: { type: 'long' },
          name: {
            type: 'text',
            analyzer: 'english',
            fields: {
              prefix: { type: 'text', analyzer: 'catalog_prefix_index', search_analyzer: 'catalog_prefix_search' },
              sort: { type: 'keyword', normalizer: 'catalog_lowercase' },
              words: { type: 'text', analyzer: 'standard' },
            },
          },
          description: { type: 'text', analyzer: 'english', fields: { words: { type: 'text', analyzer: 'standard' } } },
          publisher: { type: 'keyword' },
          release: { type: 'keyword', index: false },
          license: { type: 'keyword' },
          repositoryUrl: { type: 'keyword', index: false, doc_values: false },
          homepageUrl: { type: 'keyword', index: false, doc_values: false },
          downloads: { type: 'long' },
          popularity: { type: 'float' },
        },
      },
    });
  });

  it('stores every field of the item state, so tombstones keep their status and version', () => {
    const state = {
      id: '5b0c7c1e-2f57-4c39-9a8e-1f0d2a3b4c5d',
      slug: 'git-helper',
      name: 'Git helper',
      description: 'Helps with git',
      type: 'skill' as const,
      category: 'devops',
      tags: ['git'],
      status: 'deleted' as const,
      visibility: 'public' as const,
      updatedAt: '2026-11-20T10:00:00.000Z',
      version: 7,
    };
    const details = { publisher: 'Acme', version: '1.2.0', license: 'MIT', repositoryUrl: 'https://git.example/acme/git-helper', homepageUrl: null, downloads: 9_999 };
    expect(toDocument(state)).toEqual({ ...state, publisher: null, release: null, license: null, repositoryUrl: null, homepageUrl: null, downloads: 0, popularity: 0 });
    expect(toDocument({ ...state, details })).toEqual({
      ...state,
      publisher: 'Acme',
      release: '1.2.0',
      license: 'MIT',
      repositoryUrl: 'https://git.example/acme/git-helper',
      homepageUrl: null,
      downloads: 9_999,
      popularity: 0.5, // log10(10,000) = 4: half way
    });
  });

  it('names versioned indices after the alias and the time', () => {
    expect(versionedIndexName('skills', new Date(1_700_000_000_000))).toBe('skills-v1700000000000');
  });
});
