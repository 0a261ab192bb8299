/**
 * How a page ranks by relevance: the higher score first, equal scores newest
 * first (the order browsing lists them in).
 */
import type { DocumentStore } from './document-store';

/** `better(a, b)`: a ranks before b by relevance (`scores` by ordinal). */
export function byRelevance(scores: Float32Array, store: DocumentStore): (a: number, b: number) => boolean {
  return (a, b) => scores[a]! > scores[b]! || (scores[a] === scores[b] && store.compareNewest(a, b) < 0);
}
