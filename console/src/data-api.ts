/**
 * The catalog, collections and workspaces as the console reads and changes
 * them: the public API's operations, called with the session (api.ts). The
 * API's shapes are the typed client's (client/src/types.ts), under the
 * console's shorter names; the rules stay with the services.
 */
import { call } from './api';

// One source for the API's shapes: the typed client's declarations (type-only, so nothing of it reaches the bundle).
import type {
  CatalogItem,
  CollectionEntry,
  CreatedInvitation,
  FacetValue,
  Invitation,
  InvitedRole,
  ItemType,
  Pagination,
  PrivateSkill,
  Release,
  ReleasePage,
  Report,
  ReportReason,
  Scan,
  SearchResult,
  SearchSort,
  VerdictHistoryEntry,
  VerdictHistoryPage,
  Workspace,
  WorkspaceMember,
  WorkspaceRole,
} from '../../client/src/types';
import type { CollectionCompliance } from '../../client/src/governance-types';

export type { CatalogItem, Release, ReportReason, Scan, CreatedInvitation, FacetValue, Invitation, InvitedRole, ItemType, Pagination, PrivateSkill, Workspace };
export type Sort = SearchSort;
export type Role = WorkspaceRole;
export type Entry = CollectionEntry;
export type Member = WorkspaceMember;
export type VerdictEntry = VerdictHistoryEntry;

/** A release read alone: with each scanner's latest scan and the override in force. */
export type ReleaseDetail = Release & Required<Pick<Release, 'scans' | 'override'>>;

/** `trust=`: absent for the server's default, `clean` alone, or `any`. */
export type TrustChoice = 'clean' | 'any';

export interface SearchQuery {
  q?: string;
  category?: string;
  type?: string;
  tags?: string[];
  sort?: Sort;
  page?: number;
  trust?: TrustChoice;
  verifiedPublisher?: boolean;
}

export interface Collection {
  id: string;
  name: string;
  description: string;
  skillCount: number;
  skills: Entry[];
  createdAt: string;
  updatedAt: string;
  /** team collections only */
  workspaceId?: string;
  createdBy?: string;
  /** team collections only: every entry against the workspace policy, and how many drifted */
  compliance?: CollectionCompliance;
  drift?: { count: number };
}

export interface CollectionPatch {
  name?: string;
  description?: string;
  skillSlug?: string;
  removeSkillSlug?: string;
  privateSkillId?: string;
  removePrivateSkillId?: string;
}

const seg = encodeURIComponent;

function searchPath(query: SearchQuery): string {
  const params = new URLSearchParams({ facets: 'category,type,trust,verifiedPublisher', limit: '20' });
  if (query.q) params.set('q', query.q);
  if (query.category) params.set('category', query.category);
  if (query.type) params.set('type', query.type);
  for (const tag of query.tags ?? []) params.append('tag', tag);
  if (query.sort) params.set('sort', query.sort);
  if (query.trust) params.set('trust', query.trust);
  if (query.verifiedPublisher) params.set('verifiedPublisher', 'true');
  if (query.page && query.page > 1) params.set('page', String(query.page));
  return `/api/v1/skills?${params}`;
}

/** Where a collection lives: the caller's own, or a workspace's. */
export type CollectionScope = { kind: 'personal' } | { kind: 'team'; workspaceId: string };

const collectionsPath = (scope: CollectionScope) =>
  scope.kind === 'personal' ? '/api/v1/me/collections' : `/api/v1/workspaces/${seg(scope.workspaceId)}/collections`;

export const data = {
  search: (query: SearchQuery) => call<SearchResult>('GET', searchPath(query)),
  skill: (slug: string) => call<{ skill: CatalogItem }>('GET', `/api/v1/skills/${seg(slug)}`),
  versions: (slug: string, page: number) => call<ReleasePage>('GET', `/api/v1/skills/${seg(slug)}/versions?limit=10&page=${page}`),
  release: (slug: string, version: string) => call<{ release: ReleaseDetail }>('GET', `/api/v1/skills/${seg(slug)}/versions/${seg(version)}`),
  verdicts: (slug: string, version: string, page: number) =>
    call<VerdictHistoryPage>('GET', `/api/v1/skills/${seg(slug)}/versions/${seg(version)}/verdicts?limit=10&page=${page}`),
  report: (slug: string, input: { reason: ReportReason; text: string }) => call<{ report: Report }>('POST', `/api/v1/skills/${seg(slug)}/reports`, input),

  collections: (scope: CollectionScope, page = 1) =>
    call<{ collections: Collection[]; pagination: Pagination }>('GET', `${collectionsPath(scope)}?limit=50&page=${page}`),
  collection: (scope: CollectionScope, id: string) => call<{ collection: Collection }>('GET', `${collectionsPath(scope)}/${seg(id)}`),
  createCollection: (scope: CollectionScope, input: { name: string; description?: string }) =>
    call<{ collection: Collection }>('POST', collectionsPath(scope), input),
  updateCollection: (scope: CollectionScope, id: string, patch: CollectionPatch) =>
    call<{ collection: Collection }>('PATCH', `${collectionsPath(scope)}/${seg(id)}`, patch),
  deleteCollection: (scope: CollectionScope, id: string) => call<{ deleted: true }>('DELETE', `${collectionsPath(scope)}/${seg(id)}`),

  privateSkills: () => call<{ skills: PrivateSkill[]; pagination: Pagination }>('GET', '/api/v1/me/private-skills?limit=50'),
  createPrivateSkill: (input: { name: string; description: string }) => call<{ skill: PrivateSkill }>('POST', '/api/v1/me/private-skills', input),

  workspaces: () => call<{ workspaces: Workspace[]; pagination: Pagination }>('GET', '/api/v1/workspaces?limit=50'),
  workspace: (id: string) => call<{ workspace: Workspace }>('GET', `/api/v1/workspaces/${seg(id)}`),
  createWorkspace: (name: string) => call<{ workspace: Workspace }>('POST', '/api/v1/workspaces', { name }),
  members: (id: string, page = 1) => call<{ members: Member[]; pagination: Pagination }>('GET', `/api/v1/workspaces/${seg(id)}/members?limit=50&page=${page}`),
  setRole: (id: string, accountId: string, role: Role) =>
    call<{ member: { accountId: string; role: Role } }>('PUT', `/api/v1/workspaces/${seg(id)}/members/${seg(accountId)}`, { role }),
  removeMember: (id: string, accountId: string) => call<{ removed: true }>('DELETE', `/api/v1/workspaces/${seg(id)}/members/${seg(accountId)}`),
  invitations: (id: string) => call<{ invitations: Invitation[] }>('GET', `/api/v1/workspaces/${seg(id)}/invitations`),
  invite: (id: string, input: { role: InvitedRole; email: string | null; expiresInDays: number }) =>
    call<{ invitation: CreatedInvitation }>('POST', `/api/v1/workspaces/${seg(id)}/invitations`, input),
  revokeInvitation: (id: string, invitationId: string) => call<{ revoked: true }>('DELETE', `/api/v1/workspaces/${seg(id)}/invitations/${seg(invitationId)}`),
  previewInvitation: (token: string) =>
    call<{ invitation: { id: string; role: InvitedRole; expiresAt: string; workspace: { id: string; name: string } } }>('POST', '/api/v1/invitations/preview', {
      token,
    }),
  acceptInvitation: (token: string) => call<{ workspace: Workspace }>('POST', '/api/v1/invitations/accept', { token }),
};
