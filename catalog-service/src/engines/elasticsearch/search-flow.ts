/**
 * A search on Elasticsearch, step by step as the memory engine takes it
 * (memory/query-matcher.ts matchQuery, memory-index.ts search): find what
 * each word stands for and how often, run the exact query; when it finds
 * fewer than TYPO_FALLBACK_BELOW, add the words' typo forms and keep that
 * run if it finds more; when the answer holds fewer than SUGGEST_BELOW,
 * offer the most frequent spelling that finds more. Each step is one
 * request through `SearchIo`; the bodies come from pure builders.
 */
import type { estypes } from '@elastic/elasticsearch';
import { MAX_RESULT_WINDOW } from '../../domain/search-request';
import { typoBudget } from '../../domain/spelling';
import { queryTerms, stemOf, tokenize, type QueryTerm } from '../../domain/text-analysis';
import { SUGGEST_BELOW, TYPO_FALLBACK_BELOW, type FacetField, type Facets, type SearchQuery, type SearchResult } from '../search-engine';
import { toCatalogItem, type ItemDocument } from './item-document';
import { bestSpelling, nearWordsOf, planGroups, typoFormsOf, type TypoForms, type WordTerms } from './query-plan';
import { buildSearchRequest, type TextPlan } from './query-builder';
import {
  buildExpandRequest,
  buildFrequencyRequest,
  buildSuggestRequest,
  readExpansion,
  readFrequencies,
  readSuggestions,
  type Expansion,
  type Offered,
  type SearchBody,
} from './term-requests';

/** Sends one search body to the alias (the engine adds the index, preference and retries). */
export interface SearchIo {
  search(body: SearchBody): Promise<estypes.SearchResponse<Partial<ItemDocument>>>;
}

/** Distinct words of a query given typo candidates; a longer query's later words are taken as typed. */
export const TYPO_WORDS_MAX = 20;

export async function searchIndex(io: SearchIo, query: SearchQuery): Promise<SearchResult> {
  const { result, typos } = await find(io, query);
  if (query.q !== undefined && result.total < SUGGEST_BELOW && typos) {
    const suggestion = await suggest(io, query, result.total, typos);
    if (suggestion) result.suggestion = suggestion;
  }
  return result;
}

/** Typo candidates of a query's words and the frequencies of all of them. */
interface TypoCandidates {
  forms: Map<string, TypoForms>;
  offered: Map<string, Offered>;
  frequencies: Map<string, number>;
}

interface Found {
  result: SearchResult;
  /** when a typo run was made: what it found out, for the suggestion */
  typos?: TypoCandidates;
}

async function find(io: SearchIo, query: SearchQuery): Promise<Found> {
  if (query.q === undefined) return { result: resultOf(await io.search(buildSearchRequest(query)), query) };
  const words = queryTerms(query.q);
  if (words.length === 0) return { result: emptyResult(query) };
  const key = tokenize(query.q).join(' ');
  const stems = words.map((word) => stemOf(word.text));
  const expansion = readExpansion(words, (await io.search(buildExpandRequest(words, stems))).aggregations);
  const exactGroups = planGroups(words, stems, expansion.words, expansion.live);
  const exact = exactGroups ? await run(io, query, { groups: exactGroups, key, typos: false }) : emptyResult(query);
  if (exact.total >= TYPO_FALLBACK_BELOW) return { result: exact };
  const typos = await typoCandidates(io, key.split(' '));
  const fuzzyGroups = planGroups(words, stems, withTypos(words, expansion, typos), expansion.live);
  const nearWords = key.split(' ').map((word) => (typos.offered.has(word) ? nearWordsOf(word, typos.offered.get(word)!.keyWords) : [word]));
  const fuzzy = fuzzyGroups ? await run(io, query, { groups: fuzzyGroups, key, typos: true, nearWords }) : emptyResult(query);
  return { result: fuzzy.total > exact.total ? fuzzy : exact, typos };
}

async function run(io: SearchIo, query: SearchQuery, plan: TextPlan): Promise<SearchResult> {
  return resultOf(await io.search(buildSearchRequest(query, plan)), query);
}

/** The suggester's candidates for each distinct word of 4+ letters, and the frequencies of the candidates the rules keep. */
async function typoCandidates(io: SearchIo, keyWords: readonly string[]): Promise<TypoCandidates> {
  const eligible = [...new Set(keyWords)].filter((word) => typoBudget(word) > 0).slice(0, TYPO_WORDS_MAX);
  const offered = new Map<string, Offered>();
  const forms = new Map<string, TypoForms>();
  if (eligible.length === 0) return { forms, offered, frequencies: new Map() };
  const reply = await io.search(buildSuggestRequest(eligible));
  readSuggestions(eligible, reply.suggest).forEach((offer, i) => {
    offered.set(eligible[i]!, offer);
    forms.set(eligible[i]!, typoFormsOf(eligible[i]!, offer.terms));
  });
  const counted = [...new Set([...keyWords, ...[...forms.values()].flatMap((f) => [...f.oneEdit, ...f.twoEdits])])];
  const frequencies = readFrequencies(counted, (await io.search(buildFrequencyRequest(counted))).aggregations);
  return { forms, offered, frequencies };
}

/** The words' terms with their typo forms added (those the index holds). */
function withTypos(words: readonly QueryTerm[], expansion: Expansion, typos: TypoCandidates): WordTerms[] {
  const counted = (terms: readonly string[]) => new Map(terms.map((term) => [term, typos.frequencies.get(term) ?? 0] as const).filter(([, f]) => f > 0));
  return words.map((word, i) => {
    const forms = typos.forms.get(word.text);
    return { ...expansion.words[i]!, oneEdit: counted(forms?.oneEdit ?? []), twoEdits: counted(forms?.twoEdits ?? []) };
  });
}

/** Each word replaced by its best spelling; offered when that changes the query and finds more. */
async function suggest(io: SearchIo, query: SearchQuery, total: number, typos: TypoCandidates): Promise<SearchResult['suggestion']> {
  const words = tokenize(query.q ?? '');
  const q = words.map((word) => bestSpelling(word, typos.forms.get(word) ?? { oneEdit: [], twoEdits: [] }, typos.frequencies)).join(' ');
  if (words.length === 0 || q === words.join(' ')) return undefined;
  const { result } = await find(io, { ...query, q, page: 1, limit: 1, facets: undefined });
  return result.total > total ? { q, total: result.total } : undefined;
}

function emptyResult(query: SearchQuery): SearchResult {
  return { items: [], total: 0, ...(query.facets ? { facets: facetsOf(query.facets, undefined) } : {}) };
}

function resultOf(res: estypes.SearchResponse<Partial<ItemDocument>>, query: SearchQuery): SearchResult {
  const total = res.hits.total;
  const result: SearchResult = {
    items: res.hits.hits.map((hit) => toCatalogItem(hit._source)),
    total: Math.min(typeof total === 'number' ? total : (total?.value ?? 0), MAX_RESULT_WINDOW),
  };
  if (query.facets) result.facets = facetsOf(query.facets, res.aggregations);
  return result;
}

/** Bucket counts as facets, capped like `total` (a terms aggregation counts every match). */
function facetsOf(fields: readonly FacetField[], aggregations: Record<string, estypes.AggregationsAggregate> | undefined): Facets {
  const facets: Facets = {};
  for (const field of fields) {
    const aggregate = aggregations?.[field];
    const buckets = aggregate && 'buckets' in aggregate && Array.isArray(aggregate.buckets) ? (aggregate.buckets as Array<{ key: unknown; doc_count: number }>) : [];
    facets[field] = buckets.map((b) => ({ value: String(b.key), count: Math.min(b.doc_count, MAX_RESULT_WINDOW) }));
  }
  return facets;
}
