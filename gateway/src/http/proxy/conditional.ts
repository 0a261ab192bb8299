/**
 * Conditional GETs (RFC 9110 §8.8.3, §13.1.2): the gateway tags every 200
 * JSON answer of a public read with a strong ETag, a hash of the exact bytes
 * sent (common's `strongEtag`, the one collections-service checks If-Match
 * against), so equal bodies share a tag on every replica with no state.
 */
export { strongEtag } from '@skills/common';

const ENTITY_TAG = /(W\/)?"([^"]*)"/g;

/**
 * True when `If-None-Match` names `etag`: `*`, or a list of entity tags
 * compared weakly (a W/ tag matches the strong one with the same opaque part).
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  for (const match of header.matchAll(ENTITY_TAG)) {
    if (`"${match[2]}"` === opaque) return true;
  }
  return false;
}
