/**
 * `_search` on the fake cluster: the query over the searchable (refreshed)
 * documents, sort, from/size, `_source` filtering, `track_total_hits`, and
 * the aggregations and term suggester the engine uses.
 */
import type { estypes } from '@elastic/elasticsearch';
import { editDistanceWithin } from '../../../src/domain/spelling';
import { evaluate, matches, regexMatches, UnsupportedQueryError, type Source } from './query-eval';

export interface StoredDocument {
  id: string;
  version: number;
  source: Source;
}

type Body = estypes.SearchRequest;
type AggregationBody = estypes.AggregationsAggregationContainer;

export function runSearch(docs: StoredDocument[], body: Body): Record<string, unknown> {
  const query = body.query ?? { match_all: {} };
  // scores are computed only for hits sorted by them (size 0 collects no hits)
  const sort = body.sort === undefined ? undefined : Array.isArray(body.sort) ? body.sort : [body.sort];
  const scoring = body.size !== 0 && (sort === undefined || sort.some((s) => typeof s === 'object' && '_score' in s));
  const hits: Array<{ doc: StoredDocument; score: number }> = [];
  for (const doc of docs) {
    const e = evaluate(query, doc.source, scoring);
    if (e.matches) hits.push({ doc, score: e.score });
  }
  hits.sort(comparator(sort));
  const from = body.from ?? 0;
  const size = body.size ?? 10;
  const track = body.track_total_hits;
  const limit = typeof track === 'number' ? track : track === false ? undefined : 10_000;
  const reply: Record<string, unknown> = {
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: {
      ...(limit === undefined ? {} : { total: { value: Math.min(hits.length, limit), relation: hits.length > limit ? 'gte' : 'eq' } }),
      max_score: null,
      hits: hits.slice(from, from + size).map(({ doc, score }) => ({
        _index: 'fake',
        _id: doc.id,
        _score: scoring ? score : null,
        _source: pick(doc.source, body._source),
      })),
    },
  };
  if (body.aggs) reply.aggregations = aggregate(body.aggs, hits.map((h) => h.doc.source), docs.map((d) => d.source));
  if (body.suggest) reply.suggest = suggest(body.suggest as Record<string, estypes.SearchFieldSuggester>, docs.map((d) => d.source));
  return reply;
}

function pick(source: Source, fields: unknown): Source {
  if (!Array.isArray(fields)) return source;
  return Object.fromEntries(fields.filter((f: string) => f in source).map((f: string) => [f, source[f]]));
}

function comparator(sort: estypes.SortCombinations[] | undefined): (a: { doc: StoredDocument; score: number }, b: { doc: StoredDocument; score: number }) => number {
  const keys = (sort ?? [{ _score: { order: 'desc' } }]).map((clause) => {
    if (typeof clause !== 'object') throw new UnsupportedQueryError('fake: sort by name only not modelled');
    const [field, spec] = Object.entries(clause)[0] as [string, { order?: string }];
    return { field, desc: spec.order === 'desc' };
  });
  return (a, b) => {
    for (const { field, desc } of keys) {
      const x = field === '_score' ? a.score : sortValue(a.doc.source[field]);
      const y = field === '_score' ? b.score : sortValue(b.doc.source[field]);
      const c = compare(x, y);
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  };
}

function sortValue(v: unknown): number | string {
  if (typeof v === 'number') return v;
  const s = String(v ?? '');
  const date = /^\d{4}-\d\d-\d\dT/.test(s) ? Date.parse(s) : NaN;
  return Number.isNaN(date) ? s : date;
}

/** Keywords sort by their UTF-8 bytes; for the ASCII and BMP text of the tests that is code-unit order. */
function compare(x: number | string, y: number | string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

function aggregate(aggs: Record<string, AggregationBody>, matched: Source[], all: Source[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(aggs).map(([name, agg]) => [name, oneAggregation(agg, matched, all)]));
}

function oneAggregation(agg: AggregationBody, docs: Source[], all: Source[]): Record<string, unknown> {
  if (agg.global) return { doc_count: all.length, ...aggregate(agg.aggs ?? {}, all, all) };
  if (agg.filter) {
    const kept = docs.filter((d) => matches(agg.filter!, d));
    return { doc_count: kept.length, ...aggregate(agg.aggs ?? {}, kept, all) };
  }
  if (agg.filters) {
    const filters = agg.filters.filters as Record<string, estypes.QueryDslQueryContainer>;
    return { buckets: Object.fromEntries(Object.entries(filters).map(([key, f]) => [key, { doc_count: docs.filter((d) => matches(f, d)).length }])) };
  }
  if (agg.terms) return terms(agg.terms, docs);
  throw new UnsupportedQueryError('fake: aggregation type not modelled');
}

function terms(spec: estypes.AggregationsTermsAggregation, docs: Source[]): Record<string, unknown> {
  const field = spec.field as string;
  const include = spec.include;
  const accept = (v: string) => (include === undefined ? true : typeof include === 'string' ? regexMatches(include, v) : Array.isArray(include) ? include.includes(v) : false);
  const counts = new Map<string, number>();
  for (const doc of docs) {
    const held = doc[field];
    for (const v of new Set((Array.isArray(held) ? held : held === undefined || held === null ? [] : [held]).map(String))) {
      if (accept(v)) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
  }
  const ordered = [...counts].sort((a, b) => b[1] - a[1] || compare(a[0], b[0]));
  const size = spec.size ?? 10;
  const kept = ordered.slice(0, size);
  const other = ordered.slice(size).reduce((n, [, c]) => n + c, 0);
  return { doc_count_error_upper_bound: 0, sum_other_doc_count: other, buckets: kept.map(([key, doc_count]) => ({ key, doc_count })) };
}

/**
 * The term suggester as Lucene's DirectSpellChecker answers it: terms of the
 * field within max_edits (transpositions count one) that share the first
 * prefix_length letters, the two-edit ones sharing at least the first letter
 * (the checker's second pass keeps one), never the text itself, best
 * similarity first (1 − edits / shorter length), then most frequent, then
 * by term; at most `size`.
 */
function suggest(suggesters: Record<string, estypes.SearchFieldSuggester>, docs: Source[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(suggesters)) {
    const term = s.term;
    const text = s.text ?? '';
    if (!term) throw new UnsupportedQueryError('fake: only the term suggester is modelled');
    const frequencies = new Map<string, number>();
    for (const doc of docs) {
      const held = doc[term.field as string];
      for (const v of new Set(Array.isArray(held) ? held.map(String) : [])) frequencies.set(v, (frequencies.get(v) ?? 0) + 1);
    }
    const maxEdits = term.max_edits ?? 2;
    const prefix = term.prefix_length ?? 1;
    const options: Array<{ text: string; score: number; freq: number }> = [];
    if (text.length >= (term.min_word_length ?? 4)) {
      for (const [candidate, freq] of frequencies) {
        if (candidate === text || candidate.slice(0, prefix) !== text.slice(0, prefix)) continue;
        const edits = editDistanceWithin(text, candidate, 1) ? 1 : editDistanceWithin(text, candidate, 2) ? 2 : 3;
        if (edits > maxEdits || (edits === 2 && candidate[0] !== text[0])) continue;
        options.push({ text: candidate, score: 1 - edits / Math.min(text.length, candidate.length), freq });
      }
    }
    options.sort((a, b) => b.score - a.score || b.freq - a.freq || compare(a.text, b.text));
    out[name] = [{ text, offset: 0, length: text.length, options: options.slice(0, term.size ?? 5) }];
  }
  return out;
}
