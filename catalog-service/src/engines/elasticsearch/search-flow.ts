/**
 * A search on Elasticsearch: one request in the common case. The first runs
 * the query's words as typed (with the last word's completions). When that
 * finds fewer than TYPO_FALLBACK_BELOW, a second asks the term suggester
 * for each word's spellings (query-builder.ts buildSpellingRequest), and
 * when some word has any, a third runs the words with them (plain term
 * lookups) and keeps that run if it finds more; when the words as typed
 * found fewer than SUGGEST_BELOW and a more frequent spelling exists, the
 * count of that spelling rides with the typo run in one `_msearch`.
 * The suggester asked with every first request would save the second
 * request of the few that fall back, but cost more than that on the node
 * over all searches (docs/elasticsearch.md "How a search runs"). Bodies come
 * from the pure builders of query-builder.ts.
 */
import type { estypes } from '@elastic/elasticsearch';
import { MAX_RESULT_WINDOW } from '../../domain/search-request';
import { typoBudget, typoFormsOf, type TypoForms } from '../../domain/spelling';
import { queryTerms, tokenize } from '../../domain/text-analysis';
import {
  SUGGEST_BELOW,
  TYPO_FALLBACK_BELOW,
  type FacetField,
  type Facets,
  type SearchQuery,
  type SearchResult,
  type Suggestion,
} from '../search-engine';
import { toCatalogItem, type ItemDocument } from './item-document';
import {
  buildCountRequest,
  buildSearchRequest,
  buildSpellingRequest,
  hasMeaning,
  type SearchBody,
} from './query-builder';
import { WORDS_CLAUSE } from './meaning-query';

export type Response = estypes.SearchResponse<Partial<ItemDocument>>;

/**
 * What the flow reads of an answer, as `filter_path`: the node then
 * serialises (and the client parses) nothing else, not the shards' header,
 * the hits' index, id, score and sort values, nor the suggester's offsets
 * and scores. An empty `hits.hits` is then left out (resultOf reads it so).
 * https://elastic.co/docs/reference/elasticsearch/rest-apis/common-options#common-options-response-filtering
 */
export const RESPONSE_FIELDS = [
  'hits.total.value',
  'hits.hits._source',
  'aggregations',
  'suggest.*.options.text',
  'suggest.*.options.freq',
];

/** Sends search bodies to the alias (the engine adds the index, preference, response fields and retries). */
export interface SearchIo {
  search(body: SearchBody): Promise<Response>;
  /** two bodies in one `_msearch`, their answers in order */
  searchBoth(first: SearchBody, second: SearchBody): Promise<[Response, Response]>;
}

/** Distinct words of a query the suggester is asked about. */
export const SUGGESTED_WORDS_MAX = 8;

export async function searchIndex(io: SearchIo, query: SearchQuery): Promise<SearchResult> {
  if (query.q === undefined) return resultOf(await io.search(buildSearchRequest(query)), query);
  const words = queryTerms(query.q);
  const semantic = query.mode === 'semantic' && hasMeaning(query);
  if (words.length === 0 && !semantic) return emptyResult(query);
  const key = tokenize(query.q).join(' ');
  const exactReply = await io.search(buildSearchRequest(query, { words, key }));
  const exact = resultOf(exactReply, query);
  // Neighbours need no spelling: only the words' own count decides the typo run and the suggestion.
  if (semantic) return exact;
  const foundAsTyped = wordsFound(exactReply, query);
  if (foundAsTyped >= TYPO_FALLBACK_BELOW) return exact;
  const spelled = [...new Set(key.split(' '))].filter((word) => typoBudget(word) > 0).slice(0, SUGGESTED_WORDS_MAX);
  if (spelled.length === 0) return exact;
  const suggestReply = await io.search(buildSpellingRequest(spelled));
  const { spellings, best } = spelledOf(suggestReply, spelled);
  if (spellings.size === 0) return exact;

  const typoBody = buildSearchRequest(query, { words, key, spellings });
  // A suggestion follows only an answer of fewer than SUGGEST_BELOW: its count rides with the typo run.
  const suggested = foundAsTyped < SUGGEST_BELOW ? suggestedQuery(query.q, best) : undefined;
  const [reply, counted] = suggested
    ? await io.searchBoth(typoBody, buildCountRequest(query, { words: queryTerms(suggested), key: suggested }))
    : [await io.search(typoBody), undefined];
  const typo = resultOf(reply, query);
  const foundWithTypos = wordsFound(reply, query);
  const found = Math.max(foundWithTypos, foundAsTyped);
  const result = foundWithTypos > foundAsTyped ? typo : exact;
  if (found < SUGGEST_BELOW && suggested && counted) {
    const total = totalOf(counted);
    if (total > found) result.suggestion = { q: suggested, total } satisfies Suggestion;
  }
  return result;
}

/** Items holding every word: the total, or in a hybrid search the words' own count (meaning-query.ts). */
function wordsFound(reply: Response, query: SearchQuery): number {
  if (!hasMeaning(query)) return totalOf(reply);
  const counted = reply.aggregations?.[WORDS_CLAUSE] as { doc_count?: number } | undefined;
  return Math.min(counted?.doc_count ?? 0, MAX_RESULT_WINDOW);
}

/** The typo run's spellings of each word, and the best of them: what a suggestion puts in its place. */
interface Spelled {
  spellings: Map<string, TypoForms>;
  best: Map<string, string>;
}

/**
 * Each spelled word's spellings within its typo budget (domain/spelling.ts),
 * of the suggester's options, and the best: the most frequent, the first in
 * code-unit order among equals. Every option is more frequent than the word
 * as typed (`popular`), so the best always beats it, as the memory engine's
 * bestSpelling would have it.
 */
function spelledOf(reply: Response, spelled: readonly string[]): Spelled {
  const spellings = new Map<string, TypoForms>();
  const best = new Map<string, string>();
  spelled.forEach((word, i) => {
    const options = optionsOf(reply.suggest?.[`w${i}`]);
    const forms = typoFormsOf(word, [...options.keys()]);
    let spelling: string | undefined;
    let frequency = 0;
    for (const term of [...forms.oneEdit, ...forms.twoEdits]) {
      const f = options.get(term) ?? 0;
      if (spelling === undefined || f > frequency || (f === frequency && term < spelling)) {
        spelling = term;
        frequency = f;
      }
    }
    if (spelling === undefined) return;
    spellings.set(word, forms);
    best.set(word, spelling);
  });
  return { spellings, best };
}

/** The query with each word in its best spelling. */
function suggestedQuery(q: string, best: ReadonlyMap<string, string>): string {
  return tokenize(q)
    .map((word) => best.get(word) ?? word)
    .join(' ');
}

/** The suggester's options for one word: term → document frequency. */
function optionsOf(entries: estypes.SearchSuggest<unknown>[] | undefined): Map<string, number> {
  const options = new Map<string, number>();
  for (const entry of entries ?? []) {
    const list = Array.isArray(entry.options) ? entry.options : [entry.options];
    for (const option of list) {
      if ('freq' in option && typeof option.freq === 'number') options.set(option.text, option.freq);
    }
  }
  return options;
}

function emptyResult(query: SearchQuery): SearchResult {
  return { items: [], total: 0, ...(query.facets ? { facets: facetsOf(query.facets, undefined) } : {}) };
}

function totalOf(res: Response): number {
  const total = res.hits?.total;
  return Math.min(typeof total === 'number' ? total : (total?.value ?? 0), MAX_RESULT_WINDOW);
}

function resultOf(res: Response, query: SearchQuery): SearchResult {
  // `filter_path` leaves out an empty list of hits
  const result: SearchResult = {
    items: (res.hits?.hits ?? []).map((hit) => toCatalogItem(hit._source)),
    total: totalOf(res),
  };
  if (query.facets) result.facets = facetsOf(query.facets, res.aggregations);
  return result;
}

/** Bucket counts as facets, capped like `total` (a terms aggregation counts every match). */
function facetsOf(
  fields: readonly FacetField[],
  aggregations: Record<string, estypes.AggregationsAggregate> | undefined,
): Facets {
  const facets: Facets = {};
  for (const field of fields) {
    const aggregate = aggregations?.[field];
    const buckets =
      aggregate && 'buckets' in aggregate && Array.isArray(aggregate.buckets)
        ? (aggregate.buckets as Array<{ key: unknown; key_as_string?: string; doc_count: number }>)
        : [];
    // a boolean field's bucket keys are 1 and 0, its `key_as_string` "true" and "false"
    facets[field] = buckets.map((b) => ({
      value: b.key_as_string ?? String(b.key),
      count: Math.min(b.doc_count, MAX_RESULT_WINDOW),
    }));
  }
  return facets;
}
