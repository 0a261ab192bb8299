/** The items the engine suites index: each one newer than the last, so every order is decided. */
import { randomUUID } from 'node:crypto';
import type { CatalogItemState } from '@skills/common';

let clock = Date.parse('2026-01-01T00:00:00Z');

/** An active public item; every call is one minute newer than the last. */
export function itemState(overrides: Partial<CatalogItemState> = {}): CatalogItemState {
  clock += 60_000;
  const id = overrides.id ?? randomUUID();
  return {
    id,
    slug: `item-${id.slice(0, 8)}`,
    name: 'Untitled',
    description: '',
    type: 'skill',
    category: 'general',
    tags: [],
    status: 'active',
    visibility: 'public',
    updatedAt: new Date(clock).toISOString(),
    version: 1,
    ...overrides,
  };
}
