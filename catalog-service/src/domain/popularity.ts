/**
 * How popularity enters relevance, the same in every engine (docs/search.md
 * "Ranking"). Like npm's search, popularity is a bounded, monotone function
 * of use, so it orders equally good text matches without letting a famous
 * package outrank a better match:
 *
 *   popularity(d) = L / (L + 4), L = log10(1 + downloads)   ∈ [0, 1)
 *   relevance     = text score × (1 + 0.5 × popularity)      (at most ×1.5)
 *
 * 10,000 downloads is half way (popularity 0.5); an exact name or slug match
 * still comes first (its bonus is added after).
 */
export const POPULARITY_WEIGHT = 0.5;
const HALF_WAY_DIGITS = 4;

export function popularityOf(downloads: number): number {
  const digits = Math.log10(1 + Math.max(0, downloads));
  return digits / (digits + HALF_WAY_DIGITS);
}

/** The factor a document's text score is multiplied by. */
export function popularityBoost(downloads: number): number {
  return 1 + POPULARITY_WEIGHT * popularityOf(downloads);
}
