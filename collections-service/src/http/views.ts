/**
 * How records are shown in responses (docs/api.md). A collection
 * has one shape in a list and in a detail: in a list, `skills` holds its
 * first entries only and `skillCount` says how many there are.
 */
import type { CatalogItemState, Language } from '@skills/common';
import type { InvitationPreview } from '../domain/invitation.service';
import {
  trustView,
  type CollectionWithEntries,
  type InvitationRecord,
  type ItemRecord,
  type MemberRecord,
  type MemberWorkspace,
  type PublisherRecord,
  type ReleaseRecord,
  type VerdictEntry,
} from '../domain/model';
import type { ReleaseDetail } from '../domain/release.service';
import type { ReportRecord } from '../domain/report';
import { governanceView, personalEntryView, teamEntryView } from './entry-views';

export function personalCollectionView(c: CollectionWithEntries) {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    skillCount: c.skillCount,
    skills: c.skills.map(personalEntryView),
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

/** A team collection with its entries' compliance and drift, messages in `lang`. */
export function teamCollectionView(c: CollectionWithEntries, lang: Language) {
  return {
    id: c.id,
    workspaceId: c.workspaceId,
    name: c.name,
    description: c.description,
    createdBy: c.createdBy,
    skillCount: c.skillCount,
    skills: c.skills.map((e) => teamEntryView(e, lang)),
    ...governanceView(c),
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

export function publicSkillView(item: ItemRecord) {
  return {
    id: item.id,
    slug: item.slug,
    name: item.name,
    description: item.description,
    type: item.type,
    category: item.category,
    tags: item.tags,
    status: item.status,
    ...item.details,
    updatedAt: item.updatedAt,
  };
}

export function privateSkillView(item: ItemRecord) {
  return { id: item.id, name: item.name, description: item.description };
}

/** The full state the search side indexes; the owner of a private item stays here. */
export function itemStateView(item: ItemRecord): CatalogItemState {
  const { ownerAccountId: _owner, ...state } = item;
  return state;
}

/**
 * One entry of the changes feed: an active public item is an upsert with the
 * item as search shows it; anything else (deleted, archived, draft) is a
 * delete, so a mirror drops it. Items that were never active do not reach
 * here (the repository leaves them out), so a draft is never announced.
 */
export function skillChangeView(item: ItemRecord, releases: readonly ReleaseRecord[] = []) {
  const base = { slug: item.slug ?? '', updatedAt: item.updatedAt };
  if (item.status !== 'active') return { ...base, change: 'delete' as const };
  // a blocked item stays an upsert: a mirror keeps it with its verdict, as reading it by slug does
  return {
    ...base,
    change: 'upsert' as const,
    item: { ...catalogItemView(item), releases: releases.map(releaseFields) },
  };
}

/** An active public item as search shows it (the changes feed's upserts, the item page). */
export function catalogItemView(item: ItemRecord) {
  return {
    id: item.id,
    slug: item.slug ?? '',
    name: item.name,
    description: item.description,
    type: item.type,
    category: item.category ?? '',
    tags: item.tags,
    ...item.details,
    ...trustView(item.trust),
    updatedAt: item.updatedAt,
  };
}

/** A release without its scans: the versions list and the changes feed. */
function releaseFields(release: ReleaseRecord) {
  return {
    version: release.version,
    publishedAt: release.publishedAt,
    digest: release.digest,
    source: release.source,
    yanked: release.yanked,
    verdict: release.verdict,
  };
}

export function releaseView(release: ReleaseRecord, publisherVerified: boolean) {
  return { ...releaseFields(release), publisherVerified };
}

/** One release with each scanner's latest scan and the override in force (docs/trust.md). */
export function releaseDetailView({ release, judgement, publisherVerified }: ReleaseDetail) {
  return {
    ...releaseView(release, publisherVerified),
    scans: judgement.scans.map((s) => ({
      scanner: s.scanner,
      verdict: s.verdict,
      summary: s.summary,
      reportUrl: s.reportUrl,
      recordedAt: s.recordedAt,
    })),
    override: judgement.override && {
      verdict: judgement.override.verdict,
      note: judgement.override.note,
      recordedAt: judgement.override.recordedAt,
    },
  };
}

export function verdictEntryView(entry: VerdictEntry) {
  return {
    kind: entry.kind,
    scanner: entry.scanner,
    verdict: entry.verdict,
    summary: entry.summary,
    reportUrl: entry.reportUrl,
    note: entry.note,
    recordedAt: entry.recordedAt,
  };
}

export function publisherView(p: PublisherRecord) {
  return { name: p.name, verified: p.verified, verifiedAt: p.verifiedAt, note: p.note, itemCount: p.itemCount };
}

export function workspaceView(w: MemberWorkspace) {
  return { id: w.id, name: w.name, role: w.role, memberCount: w.memberCount, createdAt: w.createdAt };
}

export function memberView(m: MemberRecord) {
  return { accountId: m.accountId, role: m.role, joinedAt: m.joinedAt };
}

export function invitationView(i: InvitationRecord) {
  return {
    id: i.id,
    workspaceId: i.workspaceId,
    role: i.role,
    email: i.email,
    createdBy: i.createdBy,
    createdAt: i.createdAt,
    expiresAt: i.expiresAt,
  };
}

export function invitationPreviewView({ invitation, workspace }: InvitationPreview) {
  return {
    id: invitation.id,
    role: invitation.role,
    expiresAt: invitation.expiresAt,
    workspace: { id: workspace.id, name: workspace.name },
  };
}

/** A report as its reporter and operators see it: the item by slug and name. */
export function reportView(r: ReportRecord) {
  return {
    id: r.id,
    skill: { slug: r.slug, name: r.itemName },
    reason: r.reason,
    text: r.text,
    status: r.status,
    reporterAccountId: r.reporterAccountId,
    createdAt: r.createdAt,
    handledAt: r.handledAt,
    note: r.note,
  };
}
