/**
 * Every weight of relevance, the same in every engine (docs/search.md
 * "Ranking"). A document's score for a query is, per query word, the best
 * of its matching terms' contributions, summed over the words, plus what its
 * name earns:
 *
 *   contribution(term, doc) = factor(term) × weight(term, doc)
 *   factor(term)            = float32(form weight × idf(df, live documents))
 *   weight(term, doc)       = rankFeatureValue(BM25 saturation of the term's
 *                             field-weighted frequency × popularity boost)
 *
 * The memory engine reads these from its posting lists, the Elasticsearch
 * engine stores each document's weights as `rank_features` and sends the
 * factors as the boosts of `rank_feature` queries: both multiply the same
 * two float32 numbers.
 */
import { popularityBoost, popularityOf } from './popularity';

/** Field weights (the old ts_rank weights): a name match outweighs a description match 2.5×. */
export const NAME_WEIGHT = 1;
export const DESCRIPTION_WEIGHT = 0.4;
export const TAG_WEIGHT = 0.2;

/**
 * BM25's saturation and length normalisation. The average length is fixed
 * (a field-weighted length of 8), not measured: a weight then depends on the
 * document alone, so every replica and every engine scores alike.
 */
const K1 = 1.2;
const B = 0.75;
const AVG_LENGTH = 8;

/** Form weights: the word as typed 1, another form of its stem 0.9, one typo 0.5, two typos 0.4. */
export const EXACT_FORM_WEIGHT = 1;
export const STEM_WEIGHT = 0.9;
export const TYPO_WEIGHT = 0.5;
export const TWO_TYPOS_WEIGHT = 0.4;

/** A completion of the last word: 0.5–0.85, the closer to what was typed the higher ("kube" → "kubectl" before "kubernetes"). */
export function completionWeight(typed: string, term: string): number {
  return 0.5 + (0.35 * typed.length) / term.length;
}

/** BM25's idf: rare terms weigh more, a term in every document still weighs a little. */
export function idf(df: number, docs: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

/**
 * A term's factor in a query, rounded to float32: Elasticsearch reads a
 * query boost as a float, so the memory engine multiplies by the same one.
 */
export function termFactor(formWeight: number, df: number, docs: number): number {
  return Math.fround(formWeight * idf(df, docs));
}

const f32 = new Float32Array(1);
const bits = new Uint32Array(f32.buffer);

/**
 * A weight as Elasticsearch's `rank_features` keeps it: Lucene's
 * FeatureField stores a float's top 17 bits as the term frequency (sign,
 * exponent and 9 significant bits; the rest is cut, not rounded). The
 * memory engine keeps the same precision so equal inputs give equal scores.
 */
export function rankFeatureValue(weight: number): number {
  f32[0] = weight;
  bits[0] = (bits[0]! >>> 15) << 15;
  return f32[0];
}

/**
 * Each term's weight in a document: BM25's saturated frequency over the
 * field-weighted counts of its words, times the document's popularity boost
 * (the same for every term of a document, so sums and maxima keep their
 * order), at rank-feature precision.
 */
export function termWeights(
  name: readonly string[],
  description: readonly string[],
  tags: readonly string[],
  downloads: number,
): Map<string, number> {
  const frequency = new Map<string, number>();
  const count = (words: readonly string[], weight: number) => {
    for (const w of words) frequency.set(w, (frequency.get(w) ?? 0) + weight);
  };
  count(name, NAME_WEIGHT);
  count(description, DESCRIPTION_WEIGHT);
  count(tags, TAG_WEIGHT);
  const length = name.length * NAME_WEIGHT + description.length * DESCRIPTION_WEIGHT + tags.length * TAG_WEIGHT;
  const norm = K1 * (1 - B + (B * length) / AVG_LENGTH);
  const boost = popularityBoost(downloads);
  for (const [term, f] of frequency) frequency.set(term, rankFeatureValue(((f * (K1 + 1)) / (f + norm)) * boost));
  return frequency;
}

/** The item the query names (its whole name or slug, word for word) comes first. */
export const EXACT_NAME_BONUS = 1_000;
/**
 * A name the query spells with typos (every word within its budget), in a
 * typo run: above partial matches, level with names the query begins (one
 * typing "souffl" may mean "souffleur" as much as "souffle").
 */
export const TYPO_NAME_BONUS = 200;
const NAME_BEGINS_BONUS = 100;
const NAME_BEGINS_POPULARITY = 200;
/** per word of the name after the first, up to three: "inquirer" before "inquirer-type" */
const WORD_COST = 30;

/** The largest name-begins bonus (a one-word name at the highest popularity). */
export const MAX_NAME_BEGINS_BONUS = NAME_BEGINS_BONUS + NAME_BEGINS_POPULARITY;

/**
 * The bonus of a name of `words` words when a query begins it (2+ letters):
 * 100 + 200 × popularity − 30 per further word (≤ 3), as a float32. Without
 * it a rare completion wins on idf: "vit" would list "vitesse" before "vite".
 */
export function nameBeginsBonus(words: number, downloads: number): number {
  return Math.fround(
    NAME_BEGINS_BONUS +
      NAME_BEGINS_POPULARITY * popularityOf(downloads) -
      WORD_COST * Math.min(Math.max(words - 1, 0), 3),
  );
}
