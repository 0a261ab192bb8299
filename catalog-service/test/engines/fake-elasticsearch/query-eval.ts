/**
 * The fake cluster's reading of the query DSL the engine sends: which
 * documents match, and the score Lucene would give them, in float32 where
 * Lucene computes in float (research notes in docs/elasticsearch.md
 * "Parity"). Only the subset the engine uses is understood; anything else is
 * refused like a parsing error, so a body the fake cannot vouch for fails
 * the test instead of passing by accident. Leaf queries that Lucene would
 * score with BM25 (term, terms, prefix, exists) are accepted only where
 * nothing scores them (filter, must_not, constant_score, function_score
 * with boost_mode replace, script_score): a scored one fails the test.
 */
import type { estypes } from '@elastic/elasticsearch';
import { LEADING_WORD_SCRIPT } from '../../../src/engines/elasticsearch/query-builder';

type Query = estypes.QueryDslQueryContainer;
export type Source = Record<string, unknown>;

export class UnsupportedQueryError extends Error {
  readonly type = 'parsing_exception';
}

export interface Evaluation {
  matches: boolean;
  score: number;
}

const NO = { matches: false, score: 0 };
const f32 = Math.fround;

function values(source: Source, field: string): unknown[] {
  const value = source[field];
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function onlyKey<T extends object>(clause: T, what: string): [string, unknown] {
  const entries = Object.entries(clause);
  if (entries.length !== 1) throw new UnsupportedQueryError(`[${what}] expects one field`);
  return entries[0] as [string, unknown];
}

/** Lucene's regular expressions, as the engine writes them (literals, `\x` escapes and a trailing `.*`). */
export function regexMatches(pattern: string, text: string): boolean {
  const js = pattern.replace(/\\(.)|(\.\*)|([.^$+?()[\]{}|*])/g, (_, escaped: string | undefined, any: string | undefined, special: string | undefined) => {
    if (escaped !== undefined) return escaped.replace(/[.^$+?()[\]{}|*\\/]/g, (c) => `\\${c}`);
    if (any) return '.*';
    throw new UnsupportedQueryError(`fake: regex operator ${special} not modelled`);
  });
  return new RegExp(`^(?:${js})$`, 'su').test(text);
}

/** Whether a filter-context (unscored) query matches. */
export function matches(query: Query, doc: Source): boolean {
  return evaluate(query, doc, false).matches;
}

export function evaluate(query: Query, doc: Source, scoring: boolean): Evaluation {
  const [type, body] = onlyKey(query, 'query');
  switch (type) {
    case 'match_all':
      return { matches: true, score: scoring ? 1 : 0 };
    case 'bool':
      return bool(body as estypes.QueryDslBoolQuery, doc, scoring);
    case 'term':
    case 'terms':
    case 'prefix':
    case 'exists': {
      if (scoring) throw new UnsupportedQueryError(`fake: a scored [${type}] query would be scored with BM25; the engine must not score one`);
      return { matches: leafMatches(type, body, doc), score: 0 };
    }
    case 'constant_score': {
      const { filter, boost = 1 } = body as estypes.QueryDslConstantScoreQuery;
      return matches(filter, doc) ? { matches: true, score: scoring ? f32(boost) : 0 } : NO;
    }
    case 'dis_max': {
      const { queries, tie_breaker: tie = 0 } = body as estypes.QueryDslDisMaxQuery;
      if (tie !== 0) throw new UnsupportedQueryError('fake: dis_max tie_breaker other than 0');
      let hit = false;
      let max = 0;
      for (const q of queries) {
        const e = evaluate(q, doc, scoring);
        if (!e.matches) continue;
        hit = true;
        if (e.score > max) max = e.score;
      }
      return hit ? { matches: true, score: max } : NO;
    }
    case 'rank_feature':
      return rankFeature(body as estypes.QueryDslRankFeatureQuery, doc);
    case 'function_score':
      return functionScore(body as estypes.QueryDslFunctionScoreQuery, doc, scoring);
    case 'script_score':
      return scriptScore(body as estypes.QueryDslScriptScoreQuery, doc, scoring);
    default:
      throw new UnsupportedQueryError(`fake: query type [${type}] not modelled`);
  }
}

function leafMatches(type: string, body: unknown, doc: Source): boolean {
  const [field, spec] = onlyKey(body as object, type);
  const held = values(doc, field).map(String);
  if (type === 'exists') return held.length > 0;
  if (type === 'terms') return (spec as unknown[]).some((v) => held.includes(String(v)));
  const value = typeof spec === 'object' && spec !== null ? String((spec as { value: unknown }).value) : String(spec);
  if (type === 'term') return held.includes(value);
  return held.some((h) => h.startsWith(value));
}

/**
 * Lucene's BooleanQuery: required scoring clauses are summed in double and
 * rounded to float (ConjunctionScorer), optional ones likewise among
 * themselves, and the two parts added in float (ReqOptSumScorer); filters
 * and must_not score nothing.
 */
function bool(body: estypes.QueryDslBoolQuery, doc: Source, scoring: boolean): Evaluation {
  const list = (c: Query | Query[] | undefined): Query[] => (c === undefined ? [] : Array.isArray(c) ? c : [c]);
  for (const q of list(body.filter)) if (!matches(q, doc)) return NO;
  for (const q of list(body.must_not)) if (matches(q, doc)) return NO;
  let required = 0;
  for (const q of list(body.must)) {
    const e = evaluate(q, doc, scoring);
    if (!e.matches) return NO;
    required += e.score;
  }
  const should = list(body.should);
  let optional = 0;
  let matched = 0;
  for (const q of should) {
    const e = evaluate(q, doc, scoring);
    if (!e.matches) continue;
    matched++;
    optional += e.score;
  }
  const hasRequired = list(body.must).length + list(body.filter).length > 0;
  const minimum = Number(body.minimum_should_match ?? (hasRequired || should.length === 0 ? 0 : 1));
  if (matched < minimum) return NO;
  if (!scoring) return { matches: true, score: 0 };
  return { matches: true, score: matched > 0 ? f32(f32(required) + f32(optional)) : f32(required) };
}

/** FeatureField: the value kept to 9 significant bits (the top 17 bits of the float), times the boost, in float. */
function rankFeature(body: estypes.QueryDslRankFeatureQuery, doc: Source): Evaluation {
  if (!body.linear || body.saturation || body.log || body.sigmoid) throw new UnsupportedQueryError('fake: only the linear rank_feature function is modelled');
  const [field, feature] = splitFeature(body.field);
  const features = doc[field] as Record<string, number> | undefined;
  const value = features?.[feature];
  if (value === undefined) return NO;
  return { matches: true, score: f32(f32(body.boost ?? 1) * truncateFeature(value)) };
}

function splitFeature(path: string): [string, string] {
  const dot = path.indexOf('.');
  if (dot < 0) throw new UnsupportedQueryError('fake: rank_feature on a rank_feature field not modelled');
  return [path.slice(0, dot), path.slice(dot + 1)];
}

const box = new Float32Array(1);
const bits = new Uint32Array(box.buffer);
export function truncateFeature(value: number): number {
  box[0] = value;
  bits[0] = (bits[0]! >>> 15) << 15;
  return box[0];
}

function functionScore(body: estypes.QueryDslFunctionScoreQuery, doc: Source, scoring: boolean): Evaluation {
  const inner = evaluate(body.query ?? { match_all: {} }, doc, false);
  if (!inner.matches) return NO;
  const fn = body.functions?.[0];
  if (body.functions?.length !== 1 || !fn?.field_value_factor || body.boost_mode !== 'replace') {
    throw new UnsupportedQueryError('fake: only one field_value_factor with boost_mode replace is modelled');
  }
  const { field, factor = 1, modifier = 'none' } = fn.field_value_factor;
  if (modifier !== 'none') throw new UnsupportedQueryError('fake: field_value_factor modifiers not modelled');
  const value = Number(values(doc, field)[0]);
  if (Number.isNaN(value)) throw new UnsupportedQueryError(`fake: document has no ${field} and no missing value was given`);
  return { matches: true, score: scoring ? f32(factor * f32(value)) : 0 };
}

/**
 * The scripts the engine sends, each run as Painless would (float
 * arithmetic). A script the fake does not know is refused, so a change to
 * one must come with its emulation here.
 */
const SCRIPTS = new Map<string, (params: Record<string, unknown>, doc: Source) => number>([
  [
    LEADING_WORD_SCRIPT,
    (params, doc) => {
      const factors = params.f as Record<string, number>;
      const factor = factors[String(values(doc, 'leadTerm')[0])];
      const s = factor === undefined ? 0 : f32(f32(factor) * f32(Number(values(doc, 'leadWeight')[0])));
      return f32(s + f32(Number(values(doc, 'leadBonus')[0])));
    },
  ],
]);

function scriptScore(body: estypes.QueryDslScriptScoreQuery, doc: Source, scoring: boolean): Evaluation {
  if (!evaluate(body.query, doc, false).matches) return NO;
  const script = body.script as estypes.Script;
  const run = typeof script.source === 'string' ? SCRIPTS.get(script.source) : undefined;
  if (!run) throw new UnsupportedQueryError('fake: script not modelled');
  return { matches: true, score: scoring ? f32(run((script.params ?? {}) as Record<string, unknown>, doc)) : 0 };
}
