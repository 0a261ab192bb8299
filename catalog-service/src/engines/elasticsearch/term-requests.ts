/**
 * The requests that find what a query's words stand for in the index, and
 * read their answers: the other forms of each word's stem and the
 * completions of the last word with their document frequencies (one
 * `_search` of aggregations), typo candidates (the term suggester) and the
 * frequencies of chosen terms (a `filters` aggregation). Pure builders and
 * readers; the search flow sends them. Frequencies are document counts over
 * searchable items (only those carry `words`), as the memory engine's posting
 * lists count their live documents.
 */
import type { estypes } from '@elastic/elasticsearch';
import { typoBudget, TYPO_MIN_LENGTH } from '../../domain/spelling';
import type { QueryTerm } from '../../domain/text-analysis';
import { STEM_SEPARATOR } from './item-document';
import type { WordTerms } from './query-plan';

export type SearchBody = Omit<estypes.SearchRequest, 'index' | 'preference'>;
type Aggregates = Record<string, estypes.AggregationsAggregate> | undefined;

/** Listed forms of one stem; a stem has a handful, more are matched unscored. */
export const FORMS_MAX = 100;
/** Listed completions of the last word, most frequent first; more are matched unscored. */
export const COMPLETIONS_MAX = 500;
/** Typo candidates the suggester returns per word (the closest first). */
export const SUGGESTIONS_MAX = 200;

/** Only active public items count: the documents a search can return. */
export const SEARCHABLE: estypes.QueryDslQueryContainer[] = [{ term: { status: 'active' } }, { term: { visibility: 'public' } }];

/** A term or prefix as a literal in Lucene's regular expression syntax (the `include` of a terms aggregation). */
export function regexLiteral(text: string): string {
  return text.replace(/[.?+*|{}[\]()"\\#@&<>~]/g, (c) => `\\${c}`);
}

function termsIn(field: string, prefix: string, size: number): estypes.AggregationsAggregationContainer {
  return {
    filter: { prefix: { [field]: prefix } },
    aggs: { terms: { terms: { field, include: `${regexLiteral(prefix)}.*`, size, order: [{ _count: 'desc' }, { _key: 'asc' }] } } },
  };
}

/**
 * One `_search` of aggregations: the number of searchable items (the idf's
 * N, counted whatever the query), each word's stem forms (`<stem>/<term>`
 * in stemForms) and the last word's completions, with their frequencies.
 * The query keeps the aggregations to the documents holding one of them.
 * Terms aggregation: https://elastic.co/docs/reference/aggregations/search-aggregations-bucket-terms-aggregation
 * (include as a regular expression; the global aggregation ignores the query:
 * https://elastic.co/docs/reference/aggregations/search-aggregations-bucket-global-aggregation)
 */
export function buildExpandRequest(words: readonly QueryTerm[], stems: readonly string[]): SearchBody {
  const aggs: Record<string, estypes.AggregationsAggregationContainer> = {
    live: { global: {}, aggs: { searchable: { filter: { bool: { filter: SEARCHABLE } } } } },
  };
  const should: estypes.QueryDslQueryContainer[] = [];
  words.forEach((word, i) => {
    const formsPrefix = `${stems[i]}${STEM_SEPARATOR}`;
    aggs[`forms${i}`] = termsIn('stemForms', formsPrefix, FORMS_MAX);
    should.push({ prefix: { stemForms: formsPrefix } });
    if (completes(word)) {
      aggs[`completions${i}`] = termsIn('words', word.text, COMPLETIONS_MAX);
      should.push({ prefix: { words: word.text } });
    }
  });
  return { size: 0, track_total_hits: false, query: { constant_score: { filter: { bool: { should, minimum_should_match: 1 } } } }, aggs };
}

/** The last word of 2+ letters also stands for the words it begins (memory: groupOf). */
export function completes(word: QueryTerm): boolean {
  return word.prefix && word.text.length >= 2;
}

export interface Expansion {
  /** searchable items in the index */
  live: number;
  words: WordTerms[];
}

export function readExpansion(words: readonly QueryTerm[], aggregations: Aggregates): Expansion {
  const live = docCount(subAggregate(aggregations?.live, 'searchable'));
  return {
    live,
    words: words.map((word, i) => {
      const forms = bucketsOf(subAggregate(aggregations?.[`forms${i}`], 'terms'));
      const completions = completes(word) ? bucketsOf(subAggregate(aggregations?.[`completions${i}`], 'terms')) : { counts: new Map<string, number>(), more: false };
      const stemmed = new Map([...forms.counts].map(([key, count]) => [key.slice(key.indexOf(STEM_SEPARATOR) + 1), count]));
      return { forms: stemmed, completions: completions.counts, moreForms: forms.more, moreCompletions: completions.more };
    }),
  };
}

/**
 * Typo candidates of each word from the term suggester, on every term
 * (`words`, for the words' typo forms and the suggestion) and on the words
 * of names and slugs (`keyWords`, for a misspelt name). Every option within
 * the word's budget is asked for: any initial (prefix_length 0), whatever
 * its frequency (max_term_freq), for words the index holds too
 * (suggest_mode always); the typo rules are applied to the answer
 * (query-plan.ts). https://elastic.co/docs/reference/elasticsearch/rest-apis/search-suggesters#term-suggester
 */
export function buildSuggestRequest(words: readonly string[]): SearchBody {
  const suggest: Record<string, estypes.SearchFieldSuggester> = {};
  words.forEach((word, i) => {
    const term = (field: string): estypes.SearchTermSuggester => ({
      field,
      size: SUGGESTIONS_MAX,
      suggest_mode: 'always',
      max_edits: typoBudget(word),
      prefix_length: 0,
      min_word_length: TYPO_MIN_LENGTH,
      max_term_freq: 1_000_000_000,
      sort: 'score',
    });
    suggest[`words${i}`] = { text: word, term: term('words') };
    suggest[`keys${i}`] = { text: word, term: term('keyWords') };
  });
  return { size: 0, track_total_hits: false, suggest };
}

export interface Offered {
  /** terms of the index near the word */
  terms: string[];
  /** words of names and slugs near the word */
  keyWords: string[];
}

export function readSuggestions(words: readonly string[], suggest: Record<string, estypes.SearchSuggest[]> | undefined): Offered[] {
  const optionsOf = (name: string): string[] =>
    (suggest?.[name] ?? []).flatMap((entry) => {
      const options = 'options' in entry ? entry.options : [];
      return (Array.isArray(options) ? options : [options]).map((option) => option.text);
    });
  return words.map((_, i) => ({ terms: optionsOf(`words${i}`), keyWords: optionsOf(`keys${i}`) }));
}

/**
 * Document frequencies of the given terms, one `term` filter each in a
 * `filters` aggregation (a count per filter, no buckets per value).
 * https://elastic.co/docs/reference/aggregations/search-aggregations-bucket-filters-aggregation
 */
export function buildFrequencyRequest(terms: readonly string[]): SearchBody {
  const filters = Object.fromEntries(terms.map((term, i) => [String(i), { term: { words: term } }]));
  return { size: 0, track_total_hits: false, aggs: { frequencies: { filters: { filters } } } };
}

export function readFrequencies(terms: readonly string[], aggregations: Aggregates): Map<string, number> {
  const aggregate = aggregations?.frequencies;
  const buckets = aggregate && 'buckets' in aggregate && !Array.isArray(aggregate.buckets) ? (aggregate.buckets as Record<string, { doc_count: number }>) : {};
  return new Map(terms.map((term, i) => [term, buckets[String(i)]?.doc_count ?? 0]));
}

function subAggregate(aggregate: estypes.AggregationsAggregate | undefined, name: string): estypes.AggregationsAggregate | undefined {
  const nested = (aggregate as Record<string, unknown> | undefined)?.[name];
  return typeof nested === 'object' && nested !== null ? (nested as estypes.AggregationsAggregate) : undefined;
}

function docCount(aggregate: estypes.AggregationsAggregate | undefined): number {
  return aggregate && 'doc_count' in aggregate && typeof aggregate.doc_count === 'number' ? aggregate.doc_count : 0;
}

/** A terms aggregation's buckets as counts by key, and whether it left values out. */
function bucketsOf(aggregate: estypes.AggregationsAggregate | undefined): { counts: Map<string, number>; more: boolean } {
  const counts = new Map<string, number>();
  if (!aggregate || !('buckets' in aggregate) || !Array.isArray(aggregate.buckets)) return { counts, more: false };
  for (const bucket of aggregate.buckets as Array<{ key: unknown; doc_count: number }>) counts.set(String(bucket.key), bucket.doc_count);
  const other = 'sum_other_doc_count' in aggregate ? aggregate.sum_other_doc_count : 0;
  return { counts, more: typeof other === 'number' && other > 0 };
}
