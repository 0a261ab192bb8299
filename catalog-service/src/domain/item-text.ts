/**
 * What of an item its vector is computed from, and the hash that vector is
 * stored under (docs/search.md "Item vectors"): an item whose name and
 * description did not change keeps its vector through every update,
 * reindex and restart.
 */
import { createHash } from 'node:crypto';
import type { CatalogItemState } from '@skills/common';

export type EmbeddableItem = Pick<CatalogItemState, 'name' | 'description'>;

/**
 * The document text given to the model: `name: description`, the text the
 * models were chosen on (bench/src/intent-models.ts). Tags added nothing
 * measurable on the intent set, and most repeat the name's words.
 */
export function embeddingTextOf(item: EmbeddableItem): string {
  return item.description ? `${item.name}: ${item.description}` : item.name;
}

/** SHA-256 of the document text, hex: the key of the item's vector beside the model's name. */
export function contentHashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
