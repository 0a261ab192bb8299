import type { DocumentStore } from './document-store';

/**
 * The spelling a suggestion offers for one query word: the most frequent
 * term within the typo distance (domain/spelling.ts), the word itself
 * winning a tie; among equally frequent corrections, the first in code-unit
 * order.
 */
export function bestSpelling(store: DocumentStore, word: string): string {
  const { dictionary, postings } = store;
  const frequency = (id: number | undefined) => (id === undefined ? 0 : (postings[id]?.live ?? 0));
  let best = word;
  let bestFrequency = frequency(dictionary.idOf(word));
  for (const id of [...dictionary.oneEditFrom(word), ...dictionary.twoEditsFrom(word)]) {
    const termFrequency = frequency(id);
    const term = dictionary.terms[id] as string;
    if (
      termFrequency > bestFrequency ||
      (termFrequency === bestFrequency && termFrequency > 0 && best !== word && term < best)
    ) {
      best = term;
      bestFrequency = termFrequency;
    }
  }
  return best;
}
