/**
 * An item's trust as one small integer, its class: the verdict (clean,
 * suspicious, unscanned) times the publisher's verification. A query's trust
 * filters are the set of classes it accepts, a 6-bit mask: a document passes
 * when its class's bit is set, one shift and one AND, and a filter ANDs the
 * bit sets of its classes 32 documents at a time like a category's.
 * Malicious items are never indexed (domain/indexed-state.ts isSearchable).
 */
import { trustOf, type ItemTrust } from '@skills/common';
import { SEARCHABLE_VERDICTS, type SearchableVerdict, type SearchQuery } from '../search-engine';

export const TRUST_CLASS_COUNT = SEARCHABLE_VERDICTS.length * 2;
/** every class accepted: no trust filter at all */
export const EVERY_CLASS = (1 << TRUST_CLASS_COUNT) - 1;

/** The class of a searchable item's trust (a legacy state without trust is unscanned and unverified). */
export function trustClassOf(state: { trust?: ItemTrust }): number {
  const trust = trustOf(state);
  return SEARCHABLE_VERDICTS.indexOf(trust.verdict as SearchableVerdict) * 2 + (trust.publisherVerified ? 1 : 0);
}

export function verdictOfClass(trustClass: number): SearchableVerdict {
  return SEARCHABLE_VERDICTS[trustClass >>> 1] as SearchableVerdict;
}

export function verifiedOfClass(trustClass: number): boolean {
  return (trustClass & 1) === 1;
}

/** The classes a query's `trust` and `verifiedPublisher` accept, as a mask (bit c: class c). */
export function acceptedClasses(query: Pick<SearchQuery, 'trust' | 'verifiedPublisher'>): number {
  let mask = 0;
  for (let c = 0; c < TRUST_CLASS_COUNT; c++) {
    const verdictOk = query.trust === undefined || query.trust.includes(verdictOfClass(c));
    const verifiedOk = query.verifiedPublisher === undefined || query.verifiedPublisher === verifiedOfClass(c);
    if (verdictOk && verifiedOk) mask |= 1 << c;
  }
  return mask;
}

/** Whether a class is in a mask. */
export function accepts(mask: number, trustClass: number): boolean {
  return ((mask >>> trustClass) & 1) === 1;
}
