/**
 * What of an item its vector is computed from, and the hash that vector is
 * stored under (docs/search.md "Item vectors"): an item whose name,
 * description and tags did not change keeps its vector through every update,
 * reindex and restart.
 */
import { createHash } from 'node:crypto';
import type { CatalogItemState } from '@skills/common';

export type EmbeddableItem = Pick<CatalogItemState, 'name' | 'description' | 'tags'>;

/** The document text given to the model: the name, the description, then the tags. */
export function embeddingTextOf(item: EmbeddableItem): string {
  const parts = [item.name.trim(), item.description.trim()];
  if (item.tags.length > 0) parts.push(`Tags: ${item.tags.join(', ')}`);
  return parts.filter((part) => part !== '').join('. ');
}

/** SHA-256 of the document text, hex: the key of the item's vector beside the model's name. */
export function contentHashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
