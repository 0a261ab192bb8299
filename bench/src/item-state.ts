/**
 * An import line as the item state the index is given, for the in-process
 * runs that skip the services (engine-classes.ts, index-memory.ts): a fresh id
 * and one second between items' update times, as an import would stamp them.
 */
import { randomUUID } from 'node:crypto';
import { NO_DETAILS, type CatalogItemState } from '@skills/common';
import type { ImportLine } from './import-line';

export function itemStateOf(line: ImportLine, i: number): CatalogItemState {
  const { downloads, ...fields } = line;
  const details = { ...NO_DETAILS, downloads: downloads ?? 0 };
  return {
    ...fields,
    details,
    id: randomUUID(),
    visibility: 'public',
    updatedAt: new Date(1.7e12 + i * 1000).toISOString(),
    version: 1,
  };
}
