/**
 * A workspace policy's own filters (publishers, licences, denied slugs) as
 * one test of a document, read from its served columns. They have no codes
 * nor bit sets: a policy search checks each candidate, as a tag search does.
 */
import { licenseKeyOf } from '@skills/common';
import type { PolicyFilter } from '../search-engine';
import type { ItemColumns } from './item-columns';

export type PolicyCheck = (doc: number) => boolean;

export function policyCheckOf(columns: ItemColumns, filter: PolicyFilter): PolicyCheck {
  const publishers = filter.publishers && new Set(filter.publishers);
  const licenses = filter.licenses && new Set(filter.licenses);
  const denied = filter.deniedSlugs && new Set(filter.deniedSlugs);
  return (doc) => {
    if (denied?.has(columns.slugs[doc]!)) return false;
    const { publisher, license } = columns.linksOf(doc);
    if (publishers && (publisher === null || !publishers.has(publisher))) return false;
    if (licenses) {
      const key = licenseKeyOf(license);
      if (key === null || !licenses.has(key)) return false;
    }
    return true;
  };
}
