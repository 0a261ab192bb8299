import { trustOf, type CatalogItemState, type SkillChangeEvent } from '@skills/common';

/**
 * The state the search side stores for an event. Events carry the full item
 * and its version, so applying them is idempotent and order-independent. A
 * deletion becomes a tombstone (status `deleted` at the event's version),
 * never a removal: the stored version then refuses any late, older upsert.
 * Private, draft and archived items are stored as they are; engines never
 * return them (only `active` + `public` is searchable).
 */
export function indexedStateOf(event: SkillChangeEvent): CatalogItemState {
  const version = Math.max(event.version, event.item.version);
  if (event.type === 'skill.deleted') return { ...event.item, status: 'deleted', version };
  return { ...event.item, version };
}

/**
 * Only active public items are ever returned by a search, in every engine,
 * and never a blocked one (its latest release is malicious: docs/trust.md).
 * An engine stores a blocked item like a tombstone, so no query can reach it.
 */
export function isSearchable(state: Pick<CatalogItemState, 'status' | 'visibility' | 'trust'>): boolean {
  return state.status === 'active' && state.visibility === 'public' && trustOf(state).verdict !== 'malicious';
}
