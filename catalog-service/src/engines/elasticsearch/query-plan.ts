/**
 * Which terms each query word stands for, and what each weighs: the memory
 * engine's rules (memory/query-matcher.ts groupOf, domain/ranking.ts) applied
 * to the terms and document frequencies Elasticsearch reported. Pure: the
 * search flow fetches the frequencies, this decides, the query builder
 * writes the clauses.
 */
import { editDistanceWithin, typoBudget, TWO_TYPOS_MIN_LENGTH, TYPO_MIN_LENGTH, withinOneEdit } from '../../domain/spelling';
import { completionWeight, EXACT_FORM_WEIGHT, STEM_WEIGHT, termFactor, TWO_TYPOS_WEIGHT, TYPO_WEIGHT } from '../../domain/ranking';
import type { QueryTerm } from '../../domain/text-analysis';

/**
 * At most this many scored terms in one query. Elasticsearch refuses a query
 * of more leaf clauses than its limit (`too_many_nested_clauses`; 1,024 at
 * the least, larger on bigger heaps), and every scored term is one
 * `rank_feature` clause; the rest of the budget is left to the name clauses
 * and filters.
 */
export const MAX_SCORED_TERMS = 900;

/** What the index holds for one query word (document frequencies over searchable items). */
export interface WordTerms {
  /** the word's own stem's forms, the word itself included when present */
  forms: Map<string, number>;
  /** terms the word begins (its last word only) */
  completions: Map<string, number>;
  /** typo candidates: one edit (0.5), two edits (0.4) */
  oneEdit?: Map<string, number>;
  twoEdits?: Map<string, number>;
  /** more forms or completions exist than were listed: they match (unscored) through a fallback clause */
  moreForms: boolean;
  moreCompletions: boolean;
}

export interface PlannedTerm {
  term: string;
  /** float32 form weight × idf: the boost of its rank_feature clause */
  factor: number;
}

/** One query word: its scored terms and whether unscored fallbacks keep the rest of its matches. */
export interface WordGroup {
  word: QueryTerm;
  stem: string;
  terms: PlannedTerm[];
  /** match the word's other stem forms with no score (some were left out) */
  formsFallback: boolean;
  /** match every completion of the word with no score (some were left out) */
  completionsFallback: boolean;
}

/**
 * The groups of a query, as groupOf builds them: each term keeps its highest
 * form weight (the word 1, a stem form 0.9, a completion 0.5–0.85, a typo
 * 0.5 / 0.4); a word with no term makes the query match nothing (undefined).
 * Over the clause budget, the largest groups lose their lowest factors first.
 */
export function planGroups(words: readonly QueryTerm[], stems: readonly string[], found: readonly WordTerms[], live: number): WordGroup[] | undefined {
  const groups: WordGroup[] = [];
  for (const [i, word] of words.entries()) {
    const terms = found[i]!;
    const weights = new Map<string, number>();
    const df = new Map<string, number>();
    const offer = (term: string, frequency: number, weight: number) => {
      if (frequency <= 0) return;
      df.set(term, frequency);
      if (weight > (weights.get(term) ?? 0)) weights.set(term, weight);
    };
    for (const [term, f] of terms.forms) offer(term, f, term === word.text ? EXACT_FORM_WEIGHT : STEM_WEIGHT);
    for (const [term, f] of terms.completions) offer(term, f, completionWeight(word.text, term));
    for (const [term, f] of terms.oneEdit ?? []) offer(term, f, TYPO_WEIGHT);
    for (const [term, f] of terms.twoEdits ?? []) offer(term, f, TWO_TYPOS_WEIGHT);
    if (weights.size === 0 && !terms.moreForms && !terms.moreCompletions) return undefined;
    const planned = [...weights].map(([term, weight]) => ({ term, factor: termFactor(weight, df.get(term)!, live) }));
    groups.push({
      word,
      stem: stems[i]!,
      terms: byFactor(planned),
      formsFallback: terms.moreForms,
      completionsFallback: terms.moreCompletions,
    });
  }
  trimToBudget(groups);
  return groups;
}

function byFactor(terms: PlannedTerm[]): PlannedTerm[] {
  return terms.sort((a, b) => b.factor - a.factor || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
}

/** Cuts the largest group's lowest-factor terms until the query fits; a cut word keeps its matches unscored. */
function trimToBudget(groups: WordGroup[]): void {
  let total = groups.reduce((n, g) => n + g.terms.length, 0);
  while (total > MAX_SCORED_TERMS) {
    const largest = groups.reduce((a, b) => (b.terms.length > a.terms.length ? b : a));
    const keep = Math.max(1, largest.terms.length - (total - MAX_SCORED_TERMS));
    total -= largest.terms.length - keep;
    largest.terms = largest.terms.slice(0, keep);
    largest.formsFallback = true;
    if (largest.word.prefix && largest.word.text.length >= 2) largest.completionsFallback = true;
  }
}

/** Typo candidates of a word as the memory dictionary finds them (memory/term-dictionary.ts). */
export interface TypoForms {
  /** exactly one edit away, no digits */
  oneEdit: string[];
  /** 8+ letter words: two edits away, same first letter, 6+ letters, no digits */
  twoEdits: string[];
}

const DIGIT = /\d/;

/** Keeps, of the terms the suggester offered for `word`, those the typo rules allow. */
export function typoFormsOf(word: string, offered: readonly string[]): TypoForms {
  const forms: TypoForms = { oneEdit: [], twoEdits: [] };
  if (word.length < TYPO_MIN_LENGTH || DIGIT.test(word)) return forms;
  for (const term of offered) {
    if (term === word || DIGIT.test(term)) continue;
    if (withinOneEdit(word, term)) forms.oneEdit.push(term);
    if (
      word.length >= TWO_TYPOS_MIN_LENGTH &&
      term.length >= TWO_TYPOS_MIN_LENGTH - 2 &&
      term[0] === word[0] &&
      Math.abs(term.length - word.length) <= 2 &&
      editDistanceWithin(word, term, 2)
    ) {
      forms.twoEdits.push(term);
    }
  }
  return forms;
}

/** Name words the key word may stand for with typos (any letter, its typo budget), itself included. */
export function nearWordsOf(word: string, offered: readonly string[]): string[] {
  const budget = typoBudget(word);
  return [word, ...offered.filter((term) => term !== word && editDistanceWithin(word, term, budget))];
}

/**
 * The suggestion's spelling of a word (memory-index.ts bestSpelling): the
 * most frequent of its typo forms, the earliest in code-unit order among
 * equals, if it is more frequent than the word itself.
 */
export function bestSpelling(word: string, forms: TypoForms, df: ReadonlyMap<string, number>): string {
  let best = word;
  let bestFrequency = df.get(word) ?? 0;
  for (const term of [...forms.oneEdit, ...forms.twoEdits]) {
    const f = df.get(term) ?? 0;
    if (f > bestFrequency || (f === bestFrequency && f > 0 && best !== word && term < best)) {
      best = term;
      bestFrequency = f;
    }
  }
  return best;
}
