/**
 * How text becomes index terms, the same for documents and queries: lower
 * case, runs of letters and digits (anything else separates, so no query
 * syntax exists to inject), Porter2 stems (the Snowball English stemmer that
 * Postgres's `english` configuration used before, so "deploying" still finds
 * "deploy"), and the English stop words of that configuration left out of
 * queries.
 */
import stemWord from 'wink-porter2-stemmer';

/** Postgres 15 `english.stop` (Snowball's list): never a required query term. */
const STOP_WORDS = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its ' +
    'itself they them their theirs themselves what which who whom this that these those am is are was were be been being have ' +
    'has had having do does did doing a an the and but if or because as until while of at by for with about against between into ' +
    'through during before after above below to from up down in out on off over under again further then once here there when ' +
    'where why how all any both each few more most other some such no nor not only own same so than too very s t can will just ' +
    'don should now'
  ).split(' '),
);

/** At most this many query terms count; the rest of a long q adds cost, not precision. */
export const MAX_QUERY_TERMS = 8;
/** Longer runs are cut: no real word is longer, and it bounds the dictionary's keys. */
const MAX_TERM_LENGTH = 40;

const WORD = /[\p{L}\p{N}]+/gu;

export function tokenize(text: string): string[] {
  const out = text.toLowerCase().match(WORD) ?? [];
  for (let i = 0; i < out.length; i++)
    if ((out[i] as string).length > MAX_TERM_LENGTH) out[i] = (out[i] as string).slice(0, MAX_TERM_LENGTH);
  return out;
}

export function isStopWord(term: string): boolean {
  return STOP_WORDS.has(term);
}

/** Stems are memoised: a catalog repeats its words, and Porter2 is the costliest step of indexing. */
const stems = new Map<string, string>();
const MAX_MEMO = 200_000;

export function stemOf(term: string): string {
  let s = stems.get(term);
  if (s === undefined) {
    // Digits and very short words are their own stem.
    s = term.length < 3 || /\d/.test(term) ? term : stemWord(term);
    if (stems.size >= MAX_MEMO) stems.clear();
    stems.set(term, s);
  }
  return s;
}

/** One term of a query: the word as typed and whether it is the last (matched as a prefix too). */
export interface QueryTerm {
  text: string;
  prefix: boolean;
}

/**
 * The terms a query requires: stop words are dropped (as Postgres did), except
 * the last word, which may be the start of a longer one ("for" → "format");
 * duplicates count once.
 */
export function queryTerms(q: string): QueryTerm[] {
  const words = tokenize(q).slice(0, MAX_QUERY_TERMS);
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  words.forEach((text, i) => {
    const last = i === words.length - 1;
    if (!last && isStopWord(text)) return;
    const key = `${text}${last ? '*' : ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    terms.push({ text, prefix: last });
  });
  // "react react*": the exact term is implied by its prefix form.
  return terms.filter((t) => t.prefix || !seen.has(`${t.text}*`));
}
