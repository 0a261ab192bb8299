/**
 * The shapes of docs/governance.md: pinned entries, the workspace policy,
 * compliance and drift, pin updates, the lockfile and signed webhooks.
 * Written by hand from the OpenAPI document like types.ts.
 */
import type { ItemType, Pagination, ReleaseSource, Verdict } from './types';

/** An entry's pinned release; null on an entry that follows its item. */
export interface Pin {
  version: string;
  /** `sha256:` + 64 hex digits, from the catalog */
  digest: string;
  /** the pinned release's verdict now */
  verdict: Verdict;
  yanked: boolean;
  /** the verdict when the pin was set or last acknowledged (what `verdict-changed` compares with) */
  pinnedVerdict: Verdict;
}

/** A rule of the workspace policy, in the order the API names the first one broken. */
export type PolicyRule =
  | 'minimumVerdict'
  | 'verifiedPublishersOnly'
  | 'allowedPublishers'
  | 'allowedLicenses'
  | 'allowedTypes'
  | 'deniedSlugs';

export interface PolicyViolation {
  rule: PolicyRule;
  /** in the caller's language */
  message: string;
}

/** Whether a team entry complies with the policy now, and every rule it breaks. */
export interface EntryCompliance {
  complies: boolean;
  violations: PolicyViolation[];
}

/** Why a pinned entry drifted (docs/governance.md#drift-and-updating-pins). */
export type DriftCause =
  | { kind: 'newer-release'; version: string }
  | { kind: 'yanked' }
  | { kind: 'verdict-changed'; from: Verdict; to: Verdict }
  | { kind: 'blocked' }
  | { kind: 'removed' };

export type DriftKind = DriftCause['kind'];

/** A team collection's summary: does every entry comply, and how many break a rule. */
export interface CollectionCompliance {
  complies: boolean;
  violationCount: number;
}

/** The workspace policy; every field has its default when no policy is set. */
export interface WorkspacePolicy {
  minimumVerdict: Exclude<Verdict, 'malicious'>;
  verifiedPublishersOnly: boolean;
  /** null: any publisher */
  allowedPublishers: string[] | null;
  /** SPDX ids, compared case-insensitively; null: any licence */
  allowedLicenses: string[] | null;
  /** null: any type */
  allowedTypes: ItemType[] | null;
  deniedSlugs: string[];
}

/** A full replacement: an absent field takes its default. */
export type WorkspacePolicyInput = Partial<WorkspacePolicy>;

export interface PolicyAnswer {
  policy: WorkspacePolicy;
  /** null while no policy was ever set */
  updatedAt: string | null;
  updatedBy: string | null;
}

export interface PinsUpdateInput {
  /** list the changes without making them (default false) */
  dryRun?: boolean;
  /** only these entries; absent: all */
  slugs?: string[];
}

export interface PinRef {
  version: string;
  digest: string;
}

export interface PinChange {
  slug: string;
  /** null: the entry was unpinned */
  from: PinRef | null;
  /** the same version as `from` when only the release's changed verdict is acknowledged */
  to: PinRef;
}

/** Why pins:update left an entry where it is. */
export type PinSkipReason = 'removed' | 'blocked' | 'no-allowed-release' | 'not-in-collection';

export interface PinsUpdate<C> {
  dryRun: boolean;
  changes: PinChange[];
  /** blocked and removed items, with their reason */
  skipped: { slug: string; reason: PinSkipReason }[];
  /** the collection as it is after the update (unchanged on a dry run) */
  collection: C;
}

export interface LockfileEntry {
  slug: string;
  type: ItemType;
  /** null for an unpinned entry, like `digest` and `source` */
  version: string | null;
  digest: string | null;
  source: ReleaseSource | null;
  verdict: Verdict;
  /** install only entries where this is true: pinned, and the release is not malicious */
  installable: boolean;
  complies: boolean;
  violations: PolicyRule[];
}

/** The lockfile document (docs/lockfile.schema.json). */
export interface Lockfile {
  lockfileVersion: 2;
  workspace: { id: string; name: string };
  collection: { id: string; name: string };
  policy: WorkspacePolicy;
  entries: LockfileEntry[];
}

/** A lockfile as exported: its exact bytes (what the ETag hashes), parsed, and the ETag. */
export interface LockfileExport {
  text: string;
  lockfile: Lockfile;
  etag: string;
}

export type WebhookEvent = 'collection.changed' | 'collection.drifted' | 'release.verdict_changed' | 'policy.changed';

/** A webhook endpoint; never its secret. */
export interface Webhook {
  id: string;
  url: string;
  events: WebhookEvent[];
  description: string | null;
  enabled: boolean;
  /** why it was disabled after failing deliveries; null while enabled */
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A new endpoint with its `whsec_…` secret, shown this once. */
export interface CreatedWebhook {
  webhook: Webhook;
  secret: string;
}

export interface CreateWebhookInput {
  /** https, to a public address (unless the operator allows private targets) */
  url: string;
  events: WebhookEvent[];
  description?: string;
}

/** Any of the fields; `enabled: true` clears `disabledReason`. */
export interface WebhookPatch {
  url?: string;
  events?: WebhookEvent[];
  description?: string;
  enabled?: boolean;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'abandoned';

/** One event sent (or to send) to an endpoint. */
export interface WebhookDelivery {
  id: string;
  /** the `Skills-Webhook-Id` receivers deduplicate on */
  eventId: string;
  eventType: WebhookEvent | 'webhook.test';
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export interface DeliveryPage {
  deliveries: WebhookDelivery[];
  pagination: Pagination;
}
