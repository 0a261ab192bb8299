/**
 * Search quality (`--quality`): judgment sets built deterministically from the
 * catalog, and MRR@10 over them. Each query targets one known item: the name
 * typed exactly, with a typo, or cut short while typing; two or three rare
 * words of its description that its name lacks (`description`); the name's
 * most common word with the description's rarest (`mixed`), only where those
 * words identify the item (quality-words.ts). Relevant is that
 * item or any item with the same name (case-insensitively), and for the
 * description classes also any item with the same description: a search
 * cannot tell such twins apart, so either answers the query.
 *
 * `intent` and `intent-dev` are not drawn: they are the hand-written
 * sentences of intent-judgments.ts (held-out and tuning halves), present
 * only when the catalog holds every item they judge (the intent catalog,
 * bench/data/intent-catalog-20k.ndjson.gz, or a catalog containing it).
 */
import { rng } from './catalog-generator';
import type { ImportLine } from './import-line';
import { swapAdjacent } from './query-mix';
import { loadIntentJudgments, type IntentJudgment } from './intent-judgments';
import { CatalogWords, descriptionQuery, mixedQuery, WORD_SHARES } from './quality-words';

type DrawnSetName = 'exact' | 'typo' | 'prefix' | 'description' | 'mixed';
export type JudgmentSetName = DrawnSetName | 'intent' | 'intent-dev';
/** the sets drawn from the catalog, each with its own seed by its place here */
const DRAWN_SETS: readonly DrawnSetName[] = ['exact', 'typo', 'prefix', 'description', 'mixed'];
export const JUDGMENT_SETS: readonly JudgmentSetName[] = [...DRAWN_SETS, 'intent', 'intent-dev'];

export interface Judgment {
  set: JudgmentSetName;
  q: string;
  /** the item the query was made from */
  target: string;
  /** slugs counted as a hit: the target and its namesakes */
  relevant: string[];
}

export const QUALITY_SEED = 2024;
export const QUALITY_PER_SET = 500;
/** the depth MRR looks at, and the page size the quality queries ask for */
export const QUALITY_DEPTH = 10;

/** The name with one word of ≥ 5 letters misspelt (two adjacent letters swapped), or undefined when no word can be. */
export function typoQuery(name: string, next: () => number): string | undefined {
  const words = name.split(/(\s+)/); // keeps the separators, so the rest of the name is unchanged
  const candidates = words.map((w, i) => [w, i] as const).filter(([w]) => /^\p{L}{5,}$/u.test(w));
  for (let left = [...candidates]; left.length > 0;) {
    const [word, index] = left.splice(Math.floor(next() * left.length), 1)[0] as readonly [string, number];
    const misspelt = swapAdjacent(word, next);
    if (misspelt) return [...words.slice(0, index), misspelt, ...words.slice(index + 1)].join('');
  }
  return undefined;
}

/**
 * The name as typed before it is finished: its last word loses its last
 * 40 % of letters, keeping at least 3, then gets letters back until
 * `identifies` says no other name begins that way (a user who typed "Http
 * Err" beside Http Error and Http Errors has not said which they want, so no
 * single target can judge the answer); undefined when no cut of the last word
 * identifies the name (a last word of 3 letters or fewer, or one that only
 * whole tells the name from another).
 */
export function prefixQuery(name: string, identifies: (prefix: string) => boolean = () => true): string | undefined {
  const match = /^(.*?)(\S+)\s*$/su.exec(name);
  if (!match) return undefined;
  const [, head, last] = match as unknown as [string, string, string];
  const chars = [...last];
  for (let keep = Math.max(3, Math.ceil(chars.length * 0.6)); keep < chars.length; keep++) {
    const prefix = `${head}${chars.slice(0, keep).join('')}`;
    if (identifies(prefix)) return prefix;
  }
  return undefined;
}

/** The distinct names of the catalog, lower-cased and sorted: which of them a prefix begins. */
export class NamePrefixes {
  private readonly names: string[];

  constructor(names: Iterable<string>) {
    this.names = [...new Set([...names].map((n) => n.toLowerCase()))].sort();
  }

  /** True when `name` is the only name (case aside) that begins with `prefix`. */
  identifies(prefix: string, name: string): boolean {
    const p = prefix.toLowerCase();
    let lo = 0;
    let hi = this.names.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.names[mid] as string) < p) lo = mid + 1;
      else hi = mid;
    }
    const first = this.names[lo];
    const second = this.names[lo + 1];
    return first === name.toLowerCase() && !(second !== undefined && second.startsWith(p));
  }
}

/** A seeded sample of `count` distinct elements (partial Fisher–Yates). */
function sample<T>(list: readonly T[], count: number, next: () => number): T[] {
  const copy = [...list];
  const n = Math.min(count, copy.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(next() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, n);
}

/**
 * `perSet` judgments per set, from the active items only (a draft is never
 * searchable). Each set samples with its own seed, so the sets are
 * independent and adding a set changes none of the others.
 */
export function buildJudgments(
  catalog: readonly ImportLine[],
  perSet = QUALITY_PER_SET,
  seed = QUALITY_SEED,
  shares = WORD_SHARES,
  intent: readonly IntentJudgment[] = loadIntentJudgments(),
): Judgment[] {
  const active = catalog.filter((item) => item.status === 'active');
  const namesakes = groupBy(active, (item) => item.name.toLowerCase());
  const twins = groupBy(active, (item) => item.description.trim().toLowerCase());
  const words = new CatalogWords(active);
  const begun = new NamePrefixes(active.map((item) => item.name));
  const out: Judgment[] = [];
  DRAWN_SETS.forEach((set, k) => {
    const next = rng(seed + k * 1_000_003);
    const relevantTo = (item: ImportLine): string[] => {
      const byName = namesakes.get(item.name.toLowerCase()) ?? [item.slug];
      if (set !== 'description' && set !== 'mixed') return byName;
      return [...new Set([...byName, ...(twins.get(item.description.trim().toLowerCase()) ?? [])])];
    };
    // Pure queries first, to decide eligibility; the typo draws from `next`, so it is made after the sample.
    const pureQuery = (item: ImportLine): string | undefined => {
      switch (set) {
        case 'exact':
          return item.name;
        case 'typo':
          return /(^|\s)\p{L}{5,}(\s|$)/u.test(item.name) ? item.name : undefined;
        case 'prefix':
          return prefixQuery(item.name, (prefix) => begun.identifies(prefix, item.name));
        case 'description':
          // two or three words by the item's own slug, so the choice does not shift with the sample
          return descriptionQuery(item, words, item.slug.length % 2 === 0 ? 2 : 3, shares);
        case 'mixed':
          return mixedQuery(item, words, shares);
      }
    };
    // eligibility first, then the sample, so a set always has perSet items when the catalog allows
    const eligible = active.filter((item) => pureQuery(item) !== undefined);
    for (const item of sample(eligible, perSet, next)) {
      const q = set === 'typo' ? typoQuery(item.name, next) : pureQuery(item);
      if (q !== undefined) out.push({ set, q, target: item.slug, relevant: relevantTo(item) });
    }
  });
  return [...out, ...intentJudgments(active, intent)];
}

/** The hand-written intent judgments whose every judged item is in the catalog, held-out ones as `intent`. */
export function intentJudgments(active: readonly ImportLine[], intent: readonly IntentJudgment[]): Judgment[] {
  const slugs = new Set(active.map((item) => item.slug));
  return intent
    .filter((j) => j.relevant.every((slug) => slugs.has(slug)))
    .map((j) => ({
      set: j.split === 'test' ? 'intent' : 'intent-dev',
      q: j.q,
      target: j.target,
      relevant: j.relevant,
    }));
}

function groupBy(items: readonly ImportLine[], key: (item: ImportLine) => string): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item.slug);
    else groups.set(k, [item.slug]);
  }
  return groups;
}

/** 1 / rank of the first relevant slug within the first `depth` results, else 0. */
export function reciprocalRank(results: readonly string[], relevant: readonly string[], depth = QUALITY_DEPTH): number {
  const wanted = new Set(relevant);
  const rank = results.slice(0, depth).findIndex((slug) => wanted.has(slug));
  return rank === -1 ? 0 : 1 / (rank + 1);
}

export interface QualityResult {
  set: JudgmentSetName;
  queries: number;
  /** mean reciprocal rank at 10 */
  mrr10: number;
  /** share of queries with a relevant item in the first 10 results */
  found10: number;
  /** share of queries with a relevant item first */
  first: number;
  /** queries the API refused (non-2xx): scored 0 */
  errors: number;
}

export interface JudgedAnswer {
  judgment: Judgment;
  /** slugs in the order returned; undefined when the request failed */
  results: string[] | undefined;
}

/** MRR@10 and friends per set, in JUDGMENT_SETS order (sets without queries are left out). */
export function scoreQuality(answers: readonly JudgedAnswer[]): QualityResult[] {
  return JUDGMENT_SETS.flatMap((set) => {
    const mine = answers.filter((a) => a.judgment.set === set);
    if (mine.length === 0) return [];
    const ranks = mine.map((a) => (a.results ? reciprocalRank(a.results, a.judgment.relevant) : 0));
    const share = (ok: (rr: number) => boolean) => ranks.filter(ok).length / ranks.length;
    return [
      {
        set,
        queries: mine.length,
        mrr10: ranks.reduce((sum, rr) => sum + rr, 0) / ranks.length,
        found10: share((rr) => rr > 0),
        first: share((rr) => rr === 1),
        errors: mine.filter((a) => a.results === undefined).length,
      },
    ];
  });
}

export function formatQualityTable(results: readonly QualityResult[]): string {
  const header = ['set', 'queries', 'MRR@10', 'found@10', 'first', 'errors'];
  const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
  const rows = results.map((r) => [
    r.set,
    String(r.queries),
    r.mrr10.toFixed(3),
    pct(r.found10),
    pct(r.first),
    String(r.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
