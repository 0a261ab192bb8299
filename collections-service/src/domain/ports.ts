/**
 * The seams between the rules and Postgres. The domain never sees a
 * transaction object: `CollectionsStore.transaction` hands it repositories
 * bound to one transaction, so everything done through them commits or rolls
 * back together.
 */
import type {
  CollectionRecord,
  CollectionWithEntries,
  InvitationRecord,
  ItemRecord,
  MemberRecord,
  MemberWorkspace,
  NewInvitation,
  PublicItemInput,
  PublisherRecord,
  ReleaseInput,
  ReleaseJudgement,
  ReleaseRecord,
  ScanInput,
  StoredPin,
  VerdictEntry,
  Workspace,
  WorkspaceMember,
} from './model';
import type { WorkspaceRole } from '@skills/common/workspace-roles';
import type { ItemTrust, PageRequest, ScanVerdict, Verdict } from '@skills/common';
import type { WorkspaceEventStore, WorkspacePolicyRepository } from './governance-ports';
import type { IdempotencyRepository } from './idempotency';
import type { RateWindow } from './limits';
import type { NewReport, ReportOutcome, ReportRecord, ReportStatus } from './report';

export interface ItemRepository {
  findPublicBySlug(slug: string): Promise<ItemRecord | null>;
  findById(id: string): Promise<ItemRecord | null>;
  /** insert or update by slug; an update bumps the version */
  upsertPublic(input: PublicItemInput): Promise<{ item: ItemRecord; created: boolean }>;
  /** multi-row upsert of a batch with distinct slugs; returns the ids written */
  upsertPublicBatch(inputs: readonly PublicItemInput[]): Promise<string[]>;
  /** marks a non-deleted public item deleted (version + 1); null when none */
  tombstone(slug: string): Promise<ItemRecord | null>;
  createPrivate(ownerAccountId: string, name: string, description: string): Promise<ItemRecord>;
  /** one page of an account's private skills, oldest first */
  listPrivate(ownerAccountId: string, page: PageRequest): Promise<ItemRecord[]>;
  countPrivate(ownerAccountId: string): Promise<number>;
  /** serialises private-skill creations of one account, so its quota holds */
  lockPrivateOwner(ownerAccountId: string): Promise<void>;
  /** every item ordered by id, after `after` */
  page(after: string | null, limit: number): Promise<ItemRecord[]>;
  /**
   * Public items written after `after` in commit-safe order (written
   * transaction, then id), only those no transaction still in flight can
   * precede and that were active at least once (a draft never shown is not
   * a change a mirror can see); at most `limit`.
   */
  changesAfter(after: ChangePosition, limit: number): Promise<Array<{ item: ItemRecord; position: ChangePosition }>>;
  /** the public, not deleted item with this slug, row-locked until the transaction ends: its releases change one writer at a time */
  lockPublicBySlug(slug: string): Promise<ItemRecord | null>;
  /** writes the trust its releases give the item (and `latestVersion` as its release), version + 1 */
  writeTrust(itemId: string, trust: Omit<ItemTrust, 'publisherVerified'>): Promise<void>;
  /** version + 1 of every public, not deleted item of this publisher; their ids */
  touchPublisher(publisher: string): Promise<string[]>;
}

/** The releases of public items; only the yank and the derived verdict of a stored one ever change. */
export interface ReleaseRepository {
  find(itemId: string, version: string): Promise<ReleaseRecord | null>;
  /** every release of the item, in no order */
  listAll(itemId: string): Promise<ReleaseRecord[]>;
  /** every release of these items, in no order */
  listForItems(itemIds: readonly string[]): Promise<ReleaseRecord[]>;
  count(itemId: string): Promise<number>;
  insert(itemId: string, input: ReleaseInput): Promise<ReleaseRecord>;
  /** sets or clears the yank; the release after it */
  setYank(itemId: string, version: string, reason: string | null): Promise<ReleaseRecord | null>;
  setVerdict(itemId: string, version: string, verdict: Verdict): Promise<void>;
}

/** The verdict history of releases: rows are only ever added. */
export interface VerdictRepository {
  addScan(itemId: string, version: string, scan: ScanInput): Promise<void>;
  addOverride(itemId: string, version: string, verdict: ScanVerdict, note: string): Promise<void>;
  addOverrideCleared(itemId: string, version: string): Promise<void>;
  /** each scanner's latest scan and the override in force */
  judgement(itemId: string, version: string): Promise<ReleaseJudgement>;
  /** one page of the history, newest first */
  history(itemId: string, version: string, page: PageRequest): Promise<{ entries: VerdictEntry[]; total: number }>;
}

export interface PublisherRepository {
  /** creates or updates; the publisher after it */
  put(name: string, verified: boolean, note: string | null): Promise<PublisherRecord>;
  isVerified(name: string | null): Promise<boolean>;
  /** publishers operators set and names items carry, by name */
  list(verified: boolean | undefined, page: PageRequest): Promise<{ publishers: PublisherRecord[]; total: number }>;
}

/** Where a public item's last write stands in the changes feed. */
export interface ChangePosition {
  /** the writing transaction's id (xid8, as text: it can pass 2^53) */
  xid: string;
  id: string;
}

export type SkillChangeType = 'skill.upserted' | 'skill.deleted';

/**
 * Writes one skill-change event per item into the outbox, inside the
 * caller's transaction, with the state the items have in that transaction.
 */
export interface OutboxWriter {
  append(type: SkillChangeType, itemIds: readonly string[]): Promise<void>;
}

export interface NewCollection {
  ownerAccountId: string | null;
  workspaceId: string | null;
  createdBy: string;
  name: string;
  description: string;
}

export interface CollectionRepository {
  findById(id: string): Promise<CollectionRecord | null>;
  /** row-locks the collection until the transaction ends */
  lockById(id: string): Promise<CollectionRecord | null>;
  /** one page of an account's collections, oldest first, each with its first `preview` entries and its count */
  listByOwner(accountId: string, page: PageRequest, preview: number): Promise<CollectionWithEntries[]>;
  /** one page of a workspace's collections, oldest first, each with its first `preview` entries and its count */
  listByWorkspace(workspaceId: string, page: PageRequest, preview: number): Promise<CollectionWithEntries[]>;
  withEntries(collection: CollectionRecord): Promise<CollectionWithEntries>;
  /** findById and withEntries in one query: what a read of one collection needs */
  findWithEntries(id: string): Promise<CollectionWithEntries | null>;
  /** serialises creations in one scope (an account or a workspace) so a cap holds */
  lockScope(scopeId: string): Promise<void>;
  countByOwner(accountId: string): Promise<number>;
  countByWorkspace(workspaceId: string): Promise<number>;
  insert(collection: NewCollection): Promise<CollectionRecord>;
  /** the collection as updated (`updatedAt` moves on every call), with its entries */
  update(id: string, fields: { name?: string; description?: string }): Promise<CollectionWithEntries>;
  delete(id: string): Promise<boolean>;
  /** false, and a no-op, when the item is already there (its pin stays) */
  addEntry(collectionId: string, itemId: string, pin: StoredPin | null): Promise<boolean>;
  hasEntry(collectionId: string, itemId: string): Promise<boolean>;
  /** pins (or moves the pin of) the entry of the item, adding it when absent */
  setPin(collectionId: string, itemId: string, pin: StoredPin): Promise<void>;
  removeEntry(collectionId: string, itemId: string): Promise<void>;
  countEntries(collectionId: string): Promise<number>;
}

export interface WorkspaceRepository {
  create(name: string): Promise<Workspace>;
  findById(id: string): Promise<Workspace | null>;
  exists(id: string): Promise<boolean>;
  /** row-locks the workspace until the transaction ends (serialises member changes); false when it does not exist */
  lock(id: string): Promise<boolean>;
  /** the account's role (null when not a member) and whether the workspace exists (null when not), in one query */
  accessOf(workspaceId: string, accountId: string): Promise<{ role: WorkspaceRole | null } | null>;
  roleOf(workspaceId: string, accountId: string): Promise<WorkspaceRole | null>;
  countOwners(workspaceId: string): Promise<number>;
  setMember(member: WorkspaceMember): Promise<WorkspaceMember>;
  removeMember(workspaceId: string, accountId: string): Promise<void>;
  /** the workspace with `accountId`'s role in it; null when either is missing */
  forMember(workspaceId: string, accountId: string): Promise<MemberWorkspace | null>;
  /** one page of the workspaces `accountId` belongs to, oldest first */
  listForMember(accountId: string, page: PageRequest): Promise<MemberWorkspace[]>;
  countForMember(accountId: string): Promise<number>;
  /** workspaces where `accountId` is an owner */
  countOwnedBy(accountId: string): Promise<number>;
  /** one page of the members: owners first, then admins, members, viewers; each by join date */
  listMembers(workspaceId: string, page: PageRequest): Promise<MemberRecord[]>;
  countMembers(workspaceId: string): Promise<number>;
  findMember(workspaceId: string, accountId: string): Promise<MemberRecord | null>;
  /** serialises workspace creations of one account, so its quota holds */
  lockCreator(accountId: string): Promise<void>;
}

/**
 * Invitations to workspaces. "Pending" means neither revoked nor accepted
 * and not expired, by the database's clock.
 */
export interface InvitationRepository {
  insert(invitation: NewInvitation): Promise<InvitationRecord>;
  /** serialises invitation creations in one workspace, so its quota holds */
  lockWorkspace(workspaceId: string): Promise<void>;
  /** the pending invitations of a workspace, newest first */
  listPending(workspaceId: string): Promise<InvitationRecord[]>;
  countPending(workspaceId: string): Promise<number>;
  /** the invitation if it is pending, row-locked until the transaction ends */
  lockPending(id: string): Promise<InvitationRecord | null>;
  /** the invitation if it is pending */
  findPending(id: string): Promise<InvitationRecord | null>;
  revoke(id: string): Promise<void>;
  /** revokes the pending invitations `accountId` created in the workspace; how many */
  revokePendingCreatedBy(workspaceId: string, accountId: string): Promise<number>;
  markAccepted(id: string, accountId: string): Promise<void>;
}

/** Reports of public items; a reporter's id is an opaque account id. */
export interface ReportRepository {
  /** serialises report filings of one account, so its limit holds across replicas */
  lockReporter(accountId: string): Promise<void>;
  /** the account's reports in the last `windowMs` by the database's clock, against `limit` */
  windowOf(accountId: string, windowMs: number, limit: number): Promise<RateWindow>;
  insert(report: NewReport): Promise<ReportRecord>;
  /** one page, newest first; every status when `status` is absent */
  list(status: ReportStatus | undefined, page: PageRequest): Promise<ReportRecord[]>;
  count(status: ReportStatus | undefined): Promise<number>;
  findById(id: string): Promise<ReportRecord | null>;
  /** moves an open report to `outcome` with the note; null when it is not open (or does not exist) */
  handleOpen(id: string, outcome: ReportOutcome, note: string): Promise<ReportRecord | null>;
}

export interface Repositories {
  items: ItemRepository;
  releases: ReleaseRepository;
  verdicts: VerdictRepository;
  publishers: PublisherRepository;
  outbox: OutboxWriter;
  collections: CollectionRepository;
  workspaces: WorkspaceRepository;
  invitations: InvitationRepository;
  idempotency: IdempotencyRepository;
  reports: ReportRepository;
  policies: WorkspacePolicyRepository;
  workspaceEvents: WorkspaceEventStore;
}

export interface CollectionsStore {
  /** repositories outside any transaction, for reads */
  readonly repos: Repositories;
  /** runs `work` in one transaction; a throw rolls everything back */
  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
  /** a bulk write of `rows` items committed: the store keeps the planner's statistics true (store/table-statistics.ts) */
  wroteInBulk(rows: number): void;
  ping(): Promise<void>;
}
