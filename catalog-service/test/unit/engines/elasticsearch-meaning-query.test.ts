/**
 * The meaning side of an Elasticsearch search (meaning-query.ts), on its
 * exact body: a kNN clause in the same `_search` as the word query, under
 * the same filters, and the words' own count beside it. What the node makes
 * of it is proven live (elasticsearch-live.test.ts, search by meaning).
 */
import { DEFAULT_MEANING_WEIGHTS as WEIGHTS } from '../../../src/domain/hybrid-ranking';
import { queryTerms } from '../../../src/domain/text-analysis';
import { indexDefinition } from '../../../src/engines/elasticsearch/index-mapping';
import { documentVersion, toDocument } from '../../../src/engines/elasticsearch/item-document';
import { buildSearchRequest, type TextPlan } from '../../../src/engines/elasticsearch/query-builder';
import type { SearchQuery } from '../../../src/engines/search-engine';
import { itemState } from '../../support/engines/engine-items';

const vector = new Float32Array([0.6, 0.8, 0]);
const q = 'turn pdf into markdown';
const plan: TextPlan = { words: queryTerms(q), key: q };
/** Only searchable items carry words and vectors (item-document.ts): their status and visibility go without saying. */
const FILTERS = [{ term: { category: 'writing' } }, { terms: { verdict: ['clean', 'unscanned'] } }];
const query = (mode: SearchQuery['mode']): SearchQuery => ({
  q,
  category: 'writing',
  trust: ['clean', 'unscanned'],
  page: 1,
  limit: 20,
  sort: 'relevance',
  mode,
  meaning: vector,
});
const wordsOf = (body: ReturnType<typeof buildSearchRequest>) => body.query as { bool: { must: unknown[] } };

const nearest = {
  knn: {
    field: 'vector',
    query_vector: [Math.fround(0.6), Math.fround(0.8), 0],
    k: WEIGHTS.k,
    num_candidates: WEIGHTS.candidates,
    similarity: WEIGHTS.minCosine,
    filter: FILTERS,
    boost: WEIGHTS.meaning,
  },
};

describe('the meaning side of an Elasticsearch search', () => {
  it('adds the k nearest items under the query’s own filters to the word query, in one bool, and counts the word matches apart', () => {
    const lexical = buildSearchRequest(query('lexical'), plan);
    const [textQuery] = wordsOf(lexical).bool.must;
    const body = buildSearchRequest(query('hybrid'), plan);
    const { bool } = body.query as {
      bool: { filter: unknown; should: Array<Record<string, unknown>>; minimum_should_match: number };
    };
    expect(bool.filter).toEqual(FILTERS);
    expect(bool.minimum_should_match).toBe(1);
    const allWords =
      WEIGHTS.allWords === 0 ? [] : [{ constant_score: { filter: { match_all: {} }, boost: WEIGHTS.allWords } }];
    expect(bool.should[0]).toEqual({ bool: { must: [textQuery], should: allWords, _name: 'words' } });
    if (WEIGHTS.someWords === 0) expect(bool.should[1]).toEqual(nearest);
    else {
      const neighbours = bool.should[1] as {
        bool: {
          must: unknown[];
          should: Array<{ function_score: { query: { bool: { should: unknown[] } }; boost: number } }>;
        };
      };
      expect(neighbours.bool.must).toEqual([nearest]);
      const someWords = neighbours.bool.should[0]!.function_score;
      expect(someWords.boost).toBe(WEIGHTS.someWords);
      expect(someWords.query.bool.should).toHaveLength(plan.words.length);
    }
    expect(body.aggs).toEqual({ words: { filter: textQuery } });
    // the page, its order and its count are the word query's own
    expect({ ...body, query: undefined, aggs: undefined }).toEqual({ ...lexical, query: undefined, aggs: undefined });
  });

  it('answers by the neighbours alone in semantic mode, and sends a lexical query unchanged', () => {
    const semantic = buildSearchRequest(query('semantic'), plan).query as {
      bool: { filter: unknown; must: Array<{ bool?: { must: unknown[] } }> };
    };
    expect(semantic.bool.filter).toEqual(FILTERS);
    expect(WEIGHTS.someWords === 0 ? semantic.bool.must[0] : semantic.bool.must[0]!.bool!.must[0]).toEqual(nearest);
    const withoutVector = buildSearchRequest({ ...query('hybrid'), meaning: undefined }, plan);
    expect(withoutVector).toEqual(buildSearchRequest({ ...query('lexical'), meaning: undefined }, plan));
    expect(withoutVector.aggs).toBeUndefined();
  });

  it('maps an int8 HNSW dense_vector of the model’s length, named in _meta, and writes a vector one external version above the words', () => {
    const { mappings } = indexDefinition({}, { model: 'minilm@1', dimensions: 384 });
    expect(mappings?.properties?.vector).toEqual({
      type: 'dense_vector',
      dims: 384,
      index: true,
      similarity: 'dot_product',
      index_options: { type: 'int8_hnsw', m: 16, ef_construction: 100 },
    });
    expect(mappings?._meta).toMatchObject({ vectorModel: 'minilm@1' });
    expect(indexDefinition().mappings?.properties?.vector).toBeUndefined();
    const item = itemState({ name: 'Docsmith', version: 7 });
    expect(toDocument(item, vector)).toMatchObject({ vector: [Math.fround(0.6), Math.fround(0.8), 0] });
    expect(toDocument({ ...item, status: 'deleted' }, vector)).not.toHaveProperty('vector');
    expect([documentVersion(7, false), documentVersion(7, true), documentVersion(8, false)]).toEqual([14, 15, 16]);
  });
});
