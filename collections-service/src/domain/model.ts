/**
 * The records the domain works with. Repositories return them; the http
 * layer renders them. Timestamps are ISO-8601 strings.
 */
import type {
  CatalogItemState,
  ItemDetails,
  ItemStatus,
  ItemTrust,
  ItemType,
  ScanVerdict,
  Verdict,
} from '@skills/common';
import type { InvitableRole, WorkspaceRole } from '@skills/common/workspace-roles';

/** A catalog item with the owner of a private one; its details are always read with it. */
export interface ItemRecord extends CatalogItemState {
  ownerAccountId: string | null;
  details: ItemDetails;
  trust: ItemTrust;
}

/** A release of a public item (docs/trust.md); immutable but for its yank and its verdict. */
export interface ReleaseRecord {
  itemId: string;
  version: string;
  digest: string;
  publishedAt: string;
  source: { repository: string; ref: string };
  yanked: { reason: string; at: string } | null;
  verdict: Verdict;
}

/** What a publisher's pipeline, a mirror or an import line publishes. */
export interface ReleaseInput {
  version: string;
  digest: string;
  publishedAt?: string;
  source: { repository: string; ref: string };
}

/** One row of a release's verdict history; fields that do not apply are null. */
export interface VerdictEntry {
  kind: 'scan' | 'override' | 'override-cleared';
  scanner: string | null;
  verdict: ScanVerdict | null;
  summary: string | null;
  reportUrl: string | null;
  note: string | null;
  recordedAt: string;
}

export interface ScanInput {
  scanner: string;
  verdict: ScanVerdict;
  summary: string;
  reportUrl: string | null;
}

/** The latest scan of each scanner and the override in force: what a release's verdict derives from. */
export interface ReleaseJudgement {
  scans: VerdictEntry[];
  override: VerdictEntry | null;
}

export interface PublisherRecord {
  name: string;
  verified: boolean;
  verifiedAt: string | null;
  note: string | null;
  /** public items not deleted that carry this name */
  itemCount: number;
}

/** A personal (ownerAccountId set) or team (workspaceId set) collection. */
export interface CollectionRecord {
  id: string;
  ownerAccountId: string | null;
  workspaceId: string | null;
  createdBy: string;
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

export interface PublicEntry extends ItemDetails, TrustView {
  /** internal: what releases and pins are looked up by; never shown */
  itemId: string;
  slug: string;
  name: string;
  type: ItemType;
  category: string | null;
  status: ItemStatus;
  visibility: 'public';
  /** the pinned release as it is now; null for an entry that follows the item */
  pin: EntryPin | null;
  /** team collections only, computed on read (governance.ts) */
  compliance?: EntryCompliance;
  drift?: Drift[];
}

/** A pin and the current state of its release (docs/governance.md "Pinned entries"). */
export interface EntryPin {
  version: string;
  digest: string;
  /** the release's verdict now */
  verdict: Verdict;
  yanked: boolean;
  /** the verdict acknowledged when pinning; verdict-changed drift compares with it */
  pinnedVerdict: Verdict;
  /** internal: the lockfile's `source`; not in the entry view */
  source: { repository: string; ref: string };
}

/** What is stored for a pin: the release, its digest, the verdict acknowledged. */
export interface StoredPin {
  version: string;
  digest: string;
  verdict: Verdict;
}

export interface EntryCompliance {
  complies: boolean;
  /** rule names with their message parameters; the http layer translates them */
  violations: Array<{ rule: string; params: Record<string, string | number> }>;
}

export type Drift =
  | { kind: 'newer-release'; version: string }
  | { kind: 'yanked' }
  | { kind: 'verdict-changed'; from: Verdict; to: Verdict }
  | { kind: 'blocked' }
  | { kind: 'removed' };

/** A team collection's summary of its entries' compliance and drift. */
export interface CollectionGovernance {
  compliance: { complies: boolean; violationCount: number };
  drift: { count: number };
}

/** An item's trust as every view of it shows it: a blocked item says so, and why (docs/trust.md). */
export interface TrustView {
  latestVersion: string | null;
  verdict: Verdict;
  publisherVerified: boolean;
  blocked: boolean;
  blockedReason: string | null;
}

export function trustView(trust: ItemTrust): TrustView {
  return {
    latestVersion: trust.latestVersion,
    verdict: trust.verdict,
    publisherVerified: trust.publisherVerified,
    blocked: trust.verdict === 'malicious',
    blockedReason: trust.blockedReason,
  };
}

export interface PrivateEntry {
  id: string;
  name: string;
  description: string;
  visibility: 'private';
}

export type CollectionEntry = PublicEntry | PrivateEntry;

export interface CollectionWithEntries extends CollectionRecord {
  /** every entry in a detail; the first LIST_PREVIEW_ENTRIES in a list page */
  skills: CollectionEntry[];
  /** how many entries the collection holds */
  skillCount: number;
  /** team collections only: the summary of the entries it was computed over */
  governance?: CollectionGovernance;
}

/**
 * Checked on the current, row-locked collection before a write is applied
 * (the HTTP layer's If-Match); it throws to refuse the write.
 */
export type WritePrecondition = (current: CollectionWithEntries) => void;

/** The fields an admin sets on a public item (PUT and import). */
export interface PublicItemInput {
  slug: string;
  name: string;
  description: string;
  type: ItemType;
  category: string;
  tags: string[];
  status: Exclude<ItemStatus, 'deleted'>;
  /** absent → none (a PUT replaces the item's details) */
  publisher?: string | null;
  version?: string | null;
  license?: string | null;
  repositoryUrl?: string | null;
  homepageUrl?: string | null;
  /** absent → the stored count stays (usage counts are fed apart from edits) */
  downloads?: number;
}

/** A release on an import line: the publish fields, yanked already when `yanked` is given. */
export interface ImportRelease extends ReleaseInput {
  yanked?: { reason: string } | null;
}

/** One import line: an item, the line it came from, and its releases. */
export interface ImportLine extends PublicItemInput {
  releases?: ImportRelease[];
  /** the NDJSON line number, named by a 409 */
  line?: number;
}

export interface Workspace {
  id: string;
  name: string;
}

/** A workspace as one of its members sees it: with the member's own role. */
export interface MemberWorkspace extends Workspace {
  role: WorkspaceRole;
  memberCount: number;
  createdAt: string;
}

/** One member of a workspace (accounts are opaque ids here: the gateway knows their emails). */
export interface MemberRecord {
  accountId: string;
  role: WorkspaceRole;
  joinedAt: string;
}

/** An invitation's terms and state; its secret link is the gateway's. */
export interface InvitationRecord {
  id: string;
  workspaceId: string;
  role: InvitableRole;
  /** where the gateway mailed the link, if it did; informative only (any account holding the link may accept) */
  email: string | null;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
}

export interface NewInvitation {
  workspaceId: string;
  role: InvitableRole;
  email: string | null;
  createdBy: string;
  expiresAt: Date;
}

export interface WorkspaceMember {
  workspaceId: string;
  accountId: string;
  role: WorkspaceRole;
}

/** A validated PATCH body (docs/collections.md); team collections never carry the private fields. */
export interface CollectionPatch {
  name?: string;
  description?: string;
  skillSlug?: string;
  removeSkillSlug?: string;
  privateSkillId?: string;
  removePrivateSkillId?: string;
  /** with skillSlug: pin (or move the pin to) this release */
  version?: string;
}
