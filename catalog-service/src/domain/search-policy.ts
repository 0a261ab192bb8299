/**
 * A workspace policy applied to a search (docs/governance.md "Policy for
 * every client"). The gateway signs the compiled policy into the principal,
 * so nothing a client sends can widen it: here it is ANDed with the
 * request's own filters. What the request can already say (verdicts,
 * verified publishers, one type) narrows those fields; the rest travels to
 * the engines as `SearchQuery.policy`. A policy and a request that leave
 * nothing to match answer no items rather than an error: the caller asked a
 * fair question whose answer, under the team's rules, is empty.
 */
import { licenseKeyOf, type ItemType, type SearchPolicy } from '@skills/common';
import {
  noMatches,
  SEARCHABLE_VERDICTS,
  type PolicyFilter,
  type SearchEngine,
  type SearchQuery,
  type SearchResult,
} from '../engines/search-engine';

const ITEM_TYPES: readonly ItemType[] = ['skill', 'plugin'];

/** Sorted, without repeats: equal policies make equal queries (and cache keys). */
function distinct(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

/** The query narrowed by the policy, or undefined when the two leave nothing that can match. */
export function withinPolicy(query: SearchQuery, policy: SearchPolicy): SearchQuery | undefined {
  const trust = (query.trust ?? SEARCHABLE_VERDICTS).filter((verdict) => policy.verdicts.includes(verdict));
  if (trust.length === 0) return undefined;

  let verifiedPublisher = query.verifiedPublisher;
  if (policy.verifiedPublishersOnly) {
    if (verifiedPublisher === false) return undefined;
    verifiedPublisher = true;
  }

  let type = query.type;
  if (policy.types !== null) {
    const allowed = ITEM_TYPES.filter(
      (t) => policy.types?.includes(t) && (query.type === undefined || t === query.type),
    );
    if (allowed.length === 0) return undefined;
    // every type allowed is no type filter; with two types, anything less is one type
    if (allowed.length < ITEM_TYPES.length) type = allowed[0];
  }

  const filter: PolicyFilter = {};
  if (policy.publishers !== null) {
    if (policy.publishers.length === 0) return undefined;
    filter.publishers = distinct(policy.publishers);
  }
  if (policy.licenses !== null) {
    if (policy.licenses.length === 0) return undefined;
    filter.licenses = distinct(policy.licenses.map(licenseKeyOf).filter((key) => key !== null));
  }
  if (policy.deniedSlugs.length > 0) filter.deniedSlugs = distinct(policy.deniedSlugs);

  const narrowed: SearchQuery = { ...query, trust };
  if (verifiedPublisher !== undefined) narrowed.verifiedPublisher = verifiedPublisher;
  if (type !== undefined) narrowed.type = type;
  if (Object.keys(filter).length > 0) narrowed.policy = filter;
  return narrowed;
}

/**
 * Searches under the principal's policy when it carries one. The suggestion
 * ("did you mean") is the engine's, searched with the same narrowed query,
 * so it is offered only when it finds more items the policy shows.
 */
export async function searchUnderPolicy(
  engine: SearchEngine,
  query: SearchQuery,
  policy: SearchPolicy | undefined,
): Promise<SearchResult> {
  if (!policy) return engine.search(query);
  const narrowed = withinPolicy(query, policy);
  return narrowed ? engine.search(narrowed) : noMatches(query);
}
