/**
 * The public API's request and response types, written by hand from the
 * OpenAPI document (gateway/src/openapi). gateway/test/unit/openapi-client.test.ts
 * and openapi-client-answers.test.ts validate a full value of each type against
 * the document's schema, so a field added to or dropped from either side fails
 * the tests.
 */

import type { CollectionCompliance, DriftCause, EntryCompliance, Pin } from './governance-types';

export type ItemType = 'skill' | 'plugin';
export type ItemStatus = 'active' | 'draft' | 'archived' | 'deleted';
export type SearchSort = 'relevance' | 'newest' | 'name' | 'popular';
/** How a search runs: words, words and meaning fused (the default with the search model), or meaning only. */
export type SearchMode = 'lexical' | 'hybrid' | 'semantic';
export type FacetField = 'category' | 'type' | 'trust' | 'verifiedPublisher';
/** What a scanner or an operator says of a release (docs/trust.md). */
export type Judgement = 'clean' | 'suspicious' | 'malicious';
/** A release's or an item's verdict: `unscanned` until one is recorded. */
export type Verdict = Judgement | 'unscanned';
/** Verdicts search may be asked for; a blocked (`malicious`) item is never returned. */
export type TrustFilter = 'any' | readonly Exclude<Verdict, 'malicious'>[];
export type ReportReason =
  'malware' | 'credential-theft' | 'prompt-injection' | 'impersonation' | 'spam' | 'broken' | 'other';

/** An item's registry details; null (0 downloads) when the publisher gave none. */
export interface ItemDetails {
  publisher: string | null;
  /** the release, e.g. "1.4.0" */
  version: string | null;
  /** SPDX id or expression */
  license: string | null;
  repositoryUrl: string | null;
  homepageUrl: string | null;
  downloads: number;
}

/** Where a release was built from. */
export interface ReleaseSource {
  /** an https:// URL */
  repository: string;
  /** a commit or a tag */
  ref: string;
}

/** A release as the versions list and the changes feed show it. */
export interface ReleaseSummary {
  /** SemVer, e.g. "1.4.0" */
  version: string;
  /** ISO-8601 */
  publishedAt: string;
  /** `sha256:` + 64 hex digits */
  digest: string;
  source: ReleaseSource;
  /** null, or why and when (ISO-8601) it was yanked */
  yanked: { reason: string; at: string } | null;
  verdict: Verdict;
}

/** Each scanner's latest scan of a release. */
export interface Scan {
  scanner: string;
  verdict: Judgement;
  summary: string;
  reportUrl: string | null;
  recordedAt: string;
}

/** A release of an item; `scans` and `override` only when read alone (or written). */
export interface Release extends ReleaseSummary {
  publisherVerified: boolean;
  scans?: Scan[];
  override?: { verdict: Judgement; note: string; recordedAt: string } | null;
}

/** A release read alone or just written: with each scanner's latest scan and the override in force. */
export type ReleaseDetail = Release & Required<Pick<Release, 'scans' | 'override'>>;

/** One entry of a release's verdict history; fields that do not apply are null. */
export interface VerdictHistoryEntry {
  kind: 'scan' | 'override' | 'override-cleared';
  scanner: string | null;
  verdict: Judgement | null;
  summary: string | null;
  reportUrl: string | null;
  note: string | null;
  recordedAt: string;
}

export interface ReleasePage {
  versions: Release[];
  pagination: Pagination;
}

export interface VerdictHistoryPage {
  verdicts: VerdictHistoryEntry[];
  pagination: Pagination;
}

/** A report as its reporter (and the operators) see it. */
export interface Report {
  id: string;
  skill: { slug: string; name: string };
  reason: ReportReason;
  text: string;
  status: 'open' | 'resolved' | 'dismissed';
  reporterAccountId: string;
  createdAt: string;
  handledAt: string | null;
  note: string | null;
}

export type ReportStatus = Report['status'];

export interface ReportPage {
  reports: Report[];
  pagination: Pagination;
}

/** A publisher as operators see it. */
export interface Publisher {
  name: string;
  verified: boolean;
  verifiedAt: string | null;
  note: string | null;
  /** public items, not deleted, carrying the name */
  itemCount: number;
}

export interface PublisherPage {
  publishers: Publisher[];
  pagination: Pagination;
}

/** A scanner credential; never its token. */
export interface Scanner {
  id: string;
  name: string;
  createdAt: string;
  revokedAt: string | null;
}

/** A new scanner with its `sks_…` token, shown this once. */
export interface IssuedScanner {
  scanner: Scanner;
  token: string;
}

/** A release to publish; `publishedAt` defaults to now. */
export interface PublishReleaseInput {
  version: string;
  digest: string;
  publishedAt?: string;
  source: ReleaseSource;
}

export interface CreateReportInput {
  reason: ReportReason;
  /** 0..2,000 characters */
  text?: string;
}

/** An item's trust (docs/trust.md): its latest release, verdict and publisher's verification. */
export interface ItemTrust {
  /** the highest release not yanked; null without one */
  latestVersion?: string | null;
  verdict?: Verdict;
  publisherVerified?: boolean;
  /** item reads and the changes feed: the latest release is malicious, so search never shows it */
  blocked?: boolean;
  blockedReason?: string | null;
  /** the changes feed only: every release, newest first */
  releases?: ReleaseSummary[];
}

/** An active public skill or plugin as search returns it. */
export interface CatalogItem extends ItemDetails, ItemTrust {
  id: string;
  slug: string;
  name: string;
  description: string;
  type: ItemType;
  category: string;
  tags: string[];
  /** ISO-8601 */
  updatedAt: string;
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasMore: boolean;
}

/** Query of GET /api/v1/skills; every field optional. */
export interface SearchParams {
  /** at most 200 characters */
  q?: string;
  category?: string;
  type?: ItemType;
  /** exact tags, all required (sent as repeated `tag=`) */
  tags?: readonly string[];
  /** fields to count per value over every match (sent as `facets=a,b`) */
  facets?: readonly FacetField[];
  /** 1..50, default 20 */
  limit?: number;
  /** from 1, default 1; page × limit ≤ 10,000 */
  page?: number;
  sort?: SearchSort;
  /** default `hybrid` with the search model (a `q` of one or two words, stop words aside, runs on words alone); without it, always `lexical` */
  mode?: SearchMode;
  /** verdicts to show (sent as `trust=any` or `trust=a,b`); default clean and unscanned */
  trust?: TrustFilter;
  /** only items whose publisher is (true) or is not (false) verified */
  verifiedPublisher?: boolean;
  /** a workspace id: apply that workspace's policy too (members only; docs/governance.md) */
  workspace?: string;
}

export interface FacetValue {
  value: string;
  /** capped at 10,000 like `total` */
  count: number;
}

export interface SearchResult {
  skills: CatalogItem[];
  pagination: Pagination;
  /** only when `facets` were asked for */
  facets?: Partial<Record<FacetField, FacetValue[]>>;
  /** only when the query found fewer than 3 items and a close spelling finds more */
  suggestion?: { q: string; total: number };
  /** the mode that ran */
  search?: { mode: SearchMode };
}

/** One entry of the changes feed: the item's latest state. */
export type SkillChange =
  | { slug: string; change: 'upsert'; item: CatalogItem; updatedAt: string }
  | { slug: string; change: 'delete'; updatedAt: string };

export interface SkillChanges {
  changes: SkillChange[];
  /** pass it as `since` for the next changes */
  nextCursor: string;
  /** more changes are ready now; false: caught up for now */
  hasMore: boolean;
}

/** `page` and `limit` of the collection lists; both optional. */
export interface PageParams {
  /** 1..50, default 20 */
  limit?: number;
  /** from 1, default 1 */
  page?: number;
}

/** One page of a collection list, oldest first. */
export interface CollectionPage<C> {
  collections: C[];
  pagination: Pagination;
}

/** A public skill in a collection; `status: "deleted"` once removed from the catalog, `blocked` once its latest release is malicious. */
export interface PublicSkillEntry extends ItemDetails, ItemTrust {
  slug: string;
  name: string;
  type: ItemType;
  category: string | null;
  status: ItemStatus;
  visibility: 'public';
  /** the pinned release; null while the entry follows its item */
  pin?: Pin | null;
  /** team collections only: the workspace policy's judgement now */
  compliance?: EntryCompliance;
  /** team collections only: why the pin is behind or unsafe (empty: none) */
  drift?: DriftCause[];
}

/** A private personal skill of the key owner. */
export interface PrivateSkillEntry {
  id: string;
  name: string;
  description: string;
  visibility: 'private';
}

export type CollectionEntry = PublicSkillEntry | PrivateSkillEntry;

export interface PersonalCollection {
  id: string;
  name: string;
  description: string;
  /** how many entries the collection holds */
  skillCount: number;
  /** every entry when read alone; in a list page only the first 5 (see skillCount) */
  skills: CollectionEntry[];
  createdAt: string;
  updatedAt: string;
}

export interface TeamCollection {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  /** account id of the creator */
  createdBy: string;
  /** how many entries the collection holds */
  skillCount: number;
  /** every entry when read alone; in a list page only the first 5 (see skillCount) */
  skills: PublicSkillEntry[];
  createdAt: string;
  updatedAt: string;
  /** every entry against the workspace policy now */
  compliance: CollectionCompliance;
  /** how many entries have at least one drift cause */
  drift: { count: number };
}

export interface CreateCollectionInput {
  /** 1..120 characters, trimmed */
  name: string;
  /** at most 2,000 characters */
  description?: string;
}

/** At least one field; all apply in one transaction (removals, additions, then rename). */
export interface TeamCollectionPatch {
  name?: string;
  description?: string;
  skillSlug?: string;
  /** with skillSlug: pin that release (team: else the latest the policy allows; personal: else follow the item) */
  version?: string;
  removeSkillSlug?: string;
}

export interface PersonalCollectionPatch extends TeamCollectionPatch {
  privateSkillId?: string;
  removePrivateSkillId?: string;
}

/** Options of the two creates. */
export interface CreateOptions {
  /** Same key + same body within 24 h replays the first response; another body → 409. */
  idempotencyKey?: string;
}

/** Options of a collection PATCH or DELETE. */
export interface WriteOptions {
  /**
   * The ETag of the collection as last read (`*`: any version): the write
   * applies only while it is still current, else ApiError 412 and nothing
   * changes. Without it the write applies whatever changed meanwhile.
   */
  ifMatch?: string;
}

/** A collection with the ETag that names this version of it (for `ifMatch`). */
export interface Tagged<C> {
  collection: C;
  etag: string;
}

/** A workspace, with the caller's role in it. */
export type WorkspaceRole = 'owner' | 'admin' | 'member' | 'viewer';
/** What an invitation may grant: ownership is given by an owner, never by a link. */
export type InvitedRole = Exclude<WorkspaceRole, 'owner'>;

export interface Workspace {
  id: string;
  name: string;
  /** the caller's role */
  role: WorkspaceRole;
  memberCount: number;
  createdAt: string;
}

export interface WorkspacePage {
  workspaces: Workspace[];
  pagination: Pagination;
}

/** A member, with the account's email and name (null once the account is gone). */
export interface WorkspaceMember {
  accountId: string;
  email: string | null;
  name: string | null;
  role: WorkspaceRole;
  joinedAt: string;
}

export interface MemberPage {
  members: WorkspaceMember[];
  pagination: Pagination;
}

/** A member's role as a role change answers it. */
export interface MemberRole {
  accountId: string;
  role: WorkspaceRole;
  joinedAt: string;
}

/** A pending invitation. */
export interface Invitation {
  id: string;
  workspaceId: string;
  role: InvitedRole;
  /** where the link was mailed, if an address was given */
  email: string | null;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
}

/** A new invitation: its link, shown this once, and whether it was mailed. */
export interface CreatedInvitation extends Invitation {
  url: string;
  mailed: boolean;
}

export interface CreateInvitationInput {
  role: InvitedRole;
  /** mail the link there when the server has SMTP */
  email?: string | null;
  /** 1..30, default 7 */
  expiresInDays?: number;
}

/** A private skill of the caller. */
export interface PrivateSkill {
  id: string;
  name: string;
  description: string;
}

export interface PrivateSkillPage {
  skills: PrivateSkill[];
  pagination: Pagination;
}

export interface CreatePrivateSkillInput {
  /** 1..120 characters, trimmed */
  name: string;
  /** at most 2,000 characters */
  description?: string;
}
