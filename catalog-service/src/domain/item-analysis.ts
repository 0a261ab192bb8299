/**
 * What every engine derives from an item to search it: its terms and their
 * weights, and the keys its name is matched by. Computed here once, in the
 * application, for both engines: Elasticsearch stores the result instead of
 * analysing the text itself, so its tokens, stems and stop words cannot
 * drift from the memory engine's.
 */
import { nameBeginsBonus, termWeights } from './ranking';
import { tokenize } from './text-analysis';

export interface ItemText {
  name: string;
  slug: string;
  description: string;
  tags: readonly string[];
  downloads: number;
}

export interface AnalyzedItem {
  /** the name's words (tokenize): the first leads, their count prices the name-begins bonus */
  nameWords: string[];
  slugWords: string[];
  /** the name's and the slug's words joined by one space: an exact-name query equals one of them */
  exactKey: string;
  slugKey: string;
  /** every term of name, description and tags with its weight (domain/ranking.ts) */
  weights: Map<string, number>;
  /** what the name earns when a query begins it */
  leadBonus: number;
}

export function analyzeItem(item: ItemText): AnalyzedItem {
  const nameWords = tokenize(item.name);
  const slugWords = tokenize(item.slug);
  return {
    nameWords,
    slugWords,
    exactKey: nameWords.join(' '),
    slugKey: slugWords.join(' '),
    weights: termWeights(nameWords, tokenize(item.description), tokenize(item.tags.join(' ')), item.downloads),
    leadBonus: nameBeginsBonus(nameWords.length, item.downloads),
  };
}
