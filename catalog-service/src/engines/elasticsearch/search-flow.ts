/**
 * A search on Elasticsearch: one request in the common case. The query's
 * words run as typed (with the last word's completions); when that finds
 * fewer than TYPO_FALLBACK_BELOW, one more request runs them with their typo
 * spellings and keeps that run if it finds more, and carries the term
 * suggester when a suggestion may follow; when the answer holds fewer than SUGGEST_BELOW and a more
 * frequent spelling exists, a third counts what it would find. Bodies come
 * from the pure builders of query-builder.ts.
 */
import type { estypes } from '@elastic/elasticsearch';
import { MAX_RESULT_WINDOW } from '../../domain/search-request';
import { typoBudget, typoFormsOf } from '../../domain/spelling';
import { queryTerms, tokenize } from '../../domain/text-analysis';
import { SUGGEST_BELOW, TYPO_FALLBACK_BELOW, type FacetField, type Facets, type SearchQuery, type SearchResult, type Suggestion } from '../search-engine';
import { toCatalogItem, type ItemDocument } from './item-document';
import { buildCountRequest, buildSearchRequest, hasMeaning, suggestSections, type SearchBody, type TextPlan } from './query-builder';
import { WORDS_CLAUSE } from './meaning-query';

type Response = estypes.SearchResponse<Partial<ItemDocument>>;

/** Sends one search body to the alias (the engine adds the index, preference and retries). */
export interface SearchIo {
  search(body: SearchBody): Promise<Response>;
  /** a typo run was refused (`search.allow_expensive_queries: false` refuses `fuzzy`): the words as typed answer alone */
  typosRefused(err: unknown): boolean;
}

/** Distinct words of a query the suggester is asked about. */
export const SUGGESTED_WORDS_MAX = 8;

export async function searchIndex(io: SearchIo, query: SearchQuery): Promise<SearchResult> {
  if (query.q === undefined) return resultOf(await io.search(buildSearchRequest(query)), query);
  const words = queryTerms(query.q);
  const semantic = query.mode === 'semantic' && hasMeaning(query);
  if (words.length === 0 && !semantic) return emptyResult(query);
  const key = tokenize(query.q).join(' ');
  const exactReply = await io.search(buildSearchRequest(query, { words, key, typos: false }));
  const exact = resultOf(exactReply, query);
  // Neighbours need no spelling: only the words' own count decides the typo run and the suggestion.
  if (semantic) return exact;
  const foundAsTyped = wordsFound(exactReply, query);
  if (foundAsTyped >= TYPO_FALLBACK_BELOW) return exact;

  const spelled = [...new Set(key.split(' '))].filter((word) => typoBudget(word) > 0).slice(0, SUGGESTED_WORDS_MAX);
  const typoPlan: TextPlan = { words, key, typos: true };
  const body = buildSearchRequest(query, typoPlan);
  // The answer keeps the run that finds more, so with SUGGEST_BELOW found as typed no suggestion can
  // follow: the term suggester (a third of a typo run's cost on the node) is not asked then.
  const { suggest, aggs } = foundAsTyped < SUGGEST_BELOW ? suggestSections(spelled) : {};
  let reply: Response;
  try {
    reply = await io.search({ ...body, ...(suggest ? { suggest } : {}), ...(body.aggs || aggs ? { aggs: { ...body.aggs, ...aggs } } : {}) });
  } catch (err) {
    if (io.typosRefused(err)) return exact;
    throw err;
  }
  const typo = resultOf(reply, query);
  const foundWithTypos = wordsFound(reply, query);
  const found = Math.max(foundWithTypos, foundAsTyped);
  const result = foundWithTypos > foundAsTyped ? typo : exact;
  if (found < SUGGEST_BELOW) {
    const suggestion = await suggestSpelling(io, query, found, spelled, reply);
    if (suggestion) result.suggestion = suggestion;
  }
  return result;
}

/** Items holding every word: the total, or in a hybrid search the words' own count (meaning-query.ts). */
function wordsFound(reply: Response, query: SearchQuery): number {
  if (!hasMeaning(query)) return totalOf(reply);
  const counted = reply.aggregations?.[WORDS_CLAUSE] as { doc_count?: number } | undefined;
  return Math.min(counted?.doc_count ?? 0, MAX_RESULT_WINDOW);
}

/**
 * Each word replaced by its best spelling (the most frequent within its typo
 * budget, if more frequent than the word as typed: domain/spelling.ts),
 * offered when that changes the query and finds more as typed.
 */
async function suggestSpelling(io: SearchIo, query: SearchQuery, total: number, spelled: readonly string[], reply: Response): Promise<Suggestion | undefined> {
  const best = new Map<string, string>();
  spelled.forEach((word, i) => {
    const options = optionsOf(reply.suggest?.[`w${i}`]);
    const forms = typoFormsOf(word, [...options.keys()]);
    let spelling = word;
    let frequency = typedCount(reply, i);
    for (const term of [...forms.oneEdit, ...forms.twoEdits]) {
      const f = options.get(term) ?? 0;
      if (f > frequency || (f === frequency && f > 0 && spelling !== word && term < spelling)) {
        spelling = term;
        frequency = f;
      }
    }
    if (spelling !== word) best.set(word, spelling);
  });
  if (best.size === 0) return undefined;
  const q = tokenize(query.q ?? '')
    .map((word) => best.get(word) ?? word)
    .join(' ');
  const counted = await io.search(buildCountRequest(query, { words: queryTerms(q), key: q, typos: false }));
  const found = totalOf(counted);
  return found > total ? { q, total: found } : undefined;
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

function typedCount(reply: Response, i: number): number {
  const typed = reply.aggregations?.typed as { words?: { buckets?: Record<string, { doc_count: number }> } } | undefined;
  return typed?.words?.buckets?.[`w${i}`]?.doc_count ?? 0;
}

function emptyResult(query: SearchQuery): SearchResult {
  return { items: [], total: 0, ...(query.facets ? { facets: facetsOf(query.facets, undefined) } : {}) };
}

function totalOf(res: Response): number {
  const total = res.hits.total;
  return Math.min(typeof total === 'number' ? total : (total?.value ?? 0), MAX_RESULT_WINDOW);
}

function resultOf(res: Response, query: SearchQuery): SearchResult {
  const result: SearchResult = { items: res.hits.hits.map((hit) => toCatalogItem(hit._source)), total: totalOf(res) };
  if (query.facets) result.facets = facetsOf(query.facets, res.aggregations);
  return result;
}

/** Bucket counts as facets, capped like `total` (a terms aggregation counts every match). */
function facetsOf(fields: readonly FacetField[], aggregations: Record<string, estypes.AggregationsAggregate> | undefined): Facets {
  const facets: Facets = {};
  for (const field of fields) {
    const aggregate = aggregations?.[field];
    const buckets =
      aggregate && 'buckets' in aggregate && Array.isArray(aggregate.buckets)
        ? (aggregate.buckets as Array<{ key: unknown; key_as_string?: string; doc_count: number }>)
        : [];
    // a boolean field's bucket keys are 1 and 0, its `key_as_string` "true" and "false"
    facets[field] = buckets.map((b) => ({ value: b.key_as_string ?? String(b.key), count: Math.min(b.doc_count, MAX_RESULT_WINDOW) }));
  }
  return facets;
}
