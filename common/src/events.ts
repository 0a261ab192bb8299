/**
 * The skill-change event contract between collections-service (producer,
 * through the outbox) and catalog-service (consumer). Events carry the full
 * state of the item and its version, so a consumer can apply them in any
 * order and any number of times and converge on the same document.
 */
import type { Health } from './http/health';

export const SKILL_CHANGES_TOPIC = 'skills.changes.v1';

export type ItemType = 'skill' | 'plugin';
export type ItemStatus = 'active' | 'draft' | 'archived' | 'deleted';
export type ItemVisibility = 'public' | 'private';

/** Full state of a catalog item as the search side needs it. */
export interface CatalogItemState {
  id: string;
  slug: string | null;
  name: string;
  description: string;
  type: ItemType;
  category: string | null;
  tags: string[];
  status: ItemStatus;
  visibility: ItemVisibility;
  /** ISO-8601 */
  updatedAt: string;
  /** Monotonic per item; an older version never overwrites a newer one. */
  version: number;
  /** What a registry shows beside the text; absent from events written before it existed. */
  details?: ItemDetails;
  /** Releases, verdict and publisher verification (docs/trust.md); absent from events written before they existed. */
  trust?: ItemTrust;
}

/** What a scanner may say of a release. */
export type ScanVerdict = 'clean' | 'suspicious' | 'malicious';
/** A release's verdict: the worst of each scanner's latest, an operator's override, or none yet. */
export type Verdict = ScanVerdict | 'unscanned';
/** Worst last: the order in which the worst verdict of several scanners wins. */
export const SCAN_VERDICTS_BY_SEVERITY: readonly ScanVerdict[] = ['clean', 'suspicious', 'malicious'];

/** The trust signals search filters on and every item view shows (docs/trust.md). */
export interface ItemTrust {
  /** highest non-yanked release (stable before pre-release); null with none */
  latestVersion: string | null;
  /** the verdict of `latestVersion`; `unscanned` with no release */
  verdict: Verdict;
  /** the item's publisher is verified by an operator */
  publisherVerified: boolean;
  /** why the item is blocked (its latest release is malicious): the override's note or the worst scan's summary */
  blockedReason: string | null;
}

export const NO_TRUST: Readonly<ItemTrust> = Object.freeze({
  latestVersion: null,
  verdict: 'unscanned',
  publisherVerified: false,
  blockedReason: null,
});

/** The trust of a state, none for one written before trust existed. */
export function trustOf(state: Pick<CatalogItemState, 'trust'>): ItemTrust {
  return state.trust ?? NO_TRUST;
}

/**
 * A workspace's policy compiled for search (docs/governance.md): what
 * collections-service answers the gateway and the gateway signs into the
 * principal; catalog-service ANDs it with the request's own filters.
 */
export interface SearchPolicy {
  workspaceId: string;
  /** the item verdicts allowed (never `malicious`) */
  verdicts: Verdict[];
  verifiedPublishersOnly: boolean;
  /** null: any publisher */
  publishers: string[] | null;
  /** licence keys (licenseKeyOf); null: any licence */
  licenses: string[] | null;
  /** null: any type */
  types: ItemType[] | null;
  deniedSlugs: string[];
}

/**
 * A licence as policies compare it: trimmed and lower-cased (SPDX ids
 * compare case-insensitively); null when there is none. The one rule for an
 * item's licence and a policy's list, in collections-service's checks and in
 * both search engines.
 */
export function licenseKeyOf(license: string | null): string | null {
  const key = license?.trim().toLowerCase();
  return key ? key : null;
}

/**
 * An item's registry details (publisher, release, licence, links, use).
 * `version` here is the release the publisher names ("1.4.0"), unrelated to
 * the state's own monotonic `version`.
 */
export interface ItemDetails {
  publisher: string | null;
  version: string | null;
  /** SPDX id or expression */
  license: string | null;
  repositoryUrl: string | null;
  homepageUrl: string | null;
  /** non-negative; ranking prefers the most used among equal text matches */
  downloads: number;
}

export const NO_DETAILS: Readonly<ItemDetails> = Object.freeze({
  publisher: null,
  version: null,
  license: null,
  repositoryUrl: null,
  homepageUrl: null,
  downloads: 0,
});

/** The details of a state, none for one written before details existed. */
export function detailsOf(state: Pick<CatalogItemState, 'details'>): ItemDetails {
  return state.details ?? NO_DETAILS;
}

export interface SkillChangeEvent {
  /** Unique per event (the outbox row id as a string). */
  eventId: string;
  type: 'skill.upserted' | 'skill.deleted';
  itemId: string;
  version: number;
  occurredAt: string;
  item: CatalogItemState;
}

export type EventBatchHandler = (events: SkillChangeEvent[]) => Promise<void>;

/** A running subscription; `stop()` returns after the batch in hand is done. */
export interface EventSubscription {
  stop(): Promise<void>;
  /** events published but not yet consumed by this group, when known */
  lag(): Promise<number | undefined>;
}

/**
 * Where skill-change events travel from the outbox to consumers. Delivery is
 * at least once, in order per item; a group's position advances only after
 * its handler resolved for the batch.
 */
export interface EventLog {
  subscribe(group: string, handler: EventBatchHandler): Promise<EventSubscription>;
  health(): Promise<Health>;
  close(): Promise<void>;
}
