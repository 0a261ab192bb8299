/**
 * A small typed client of the public API: one method per operation, the
 * `data` envelope unwrapped, and every non-2xx answer thrown as ApiError.
 */
import { GovernanceMethods } from './governance-client';
import { allPages } from './transport';
import type {
  CatalogItem,
  CollectionPage,
  CreateCollectionInput,
  CreatedInvitation,
  CreateInvitationInput,
  CreateOptions,
  CreatePrivateSkillInput,
  CreateReportInput,
  Invitation,
  MemberPage,
  MemberRole,
  PageParams,
  Pagination,
  PersonalCollection,
  PersonalCollectionPatch,
  PrivateSkill,
  PrivateSkillPage,
  ReleaseDetail,
  ReleasePage,
  Report,
  SearchParams,
  SearchResult,
  SkillChanges,
  Tagged,
  TeamCollection,
  TeamCollectionPatch,
  VerdictHistoryPage,
  Workspace,
  WorkspaceMember,
  WorkspacePage,
  WorkspaceRole,
  WriteOptions,
} from './types';

export type { SkillsClientOptions } from './client-base';

export class SkillsClient extends GovernanceMethods {
  searchSkills(params: SearchParams = {}): Promise<SearchResult> {
    const { tags, facets, trust, verifiedPublisher, ...rest } = params;
    const query = {
      ...rest,
      tag: tags,
      facets: facets?.join(','),
      trust: typeof trust === 'string' ? trust : trust?.join(','),
      verifiedPublisher: verifiedPublisher === undefined ? undefined : String(verifiedPublisher),
    };
    return this.call<SearchResult>('searchSkills', { query });
  }

  /** The changes after `since` (a nextCursor; absent: from the start), at most `limit` (1..500, default 100). */
  listSkillChanges(params: { since?: string; limit?: number } = {}): Promise<SkillChanges> {
    return this.call<SkillChanges>('listSkillChanges', { query: { ...params } });
  }

  /**
   * Every answer of the changes feed from `since` until caught up (`hasMore`
   * false); keep the last `nextCursor` to go on later.
   */
  async *followSkillChanges(since?: string, limit = 500): AsyncGenerator<SkillChanges> {
    for (let cursor = since; ;) {
      const page = await this.listSkillChanges({ since: cursor, limit });
      yield page;
      if (!page.hasMore) return;
      cursor = page.nextCursor;
    }
  }

  /** One page of the key owner's collections. */
  listMyCollectionsPage(params: PageParams = {}): Promise<CollectionPage<PersonalCollection>> {
    return this.call<CollectionPage<PersonalCollection>>('listMyCollections', { query: { ...params } });
  }

  /** Every collection of the key owner, page after page (at most 100 of them: two requests). */
  listMyCollections(): Promise<PersonalCollection[]> {
    return allPages(async (page) => collectionsOf(await this.listMyCollectionsPage({ page, limit: 50 })));
  }

  async createMyCollection(input: CreateCollectionInput, options: CreateOptions = {}): Promise<PersonalCollection> {
    return (
      await this.call<{ collection: PersonalCollection }>('createMyCollection', {
        body: input,
        headers: idempotency(options),
      })
    ).collection;
  }

  async getMyCollection(id: string): Promise<PersonalCollection> {
    return (await this.getMyCollectionTagged(id)).collection;
  }

  /** The collection and its ETag, to send back as `ifMatch` of a later write. */
  getMyCollectionTagged(id: string): Promise<Tagged<PersonalCollection>> {
    return this.tagged<PersonalCollection>('getMyCollection', { params: { id } });
  }

  async updateMyCollection(
    id: string,
    patch: PersonalCollectionPatch,
    options: WriteOptions = {},
  ): Promise<PersonalCollection> {
    return (await this.updateMyCollectionTagged(id, patch, options)).collection;
  }

  /** `updateMyCollection`, also answering the new ETag. */
  updateMyCollectionTagged(
    id: string,
    patch: PersonalCollectionPatch,
    options: WriteOptions = {},
  ): Promise<Tagged<PersonalCollection>> {
    return this.tagged<PersonalCollection>('updateMyCollection', {
      params: { id },
      body: patch,
      headers: precondition(options),
    });
  }

  async deleteMyCollection(id: string, options: WriteOptions = {}): Promise<void> {
    await this.call<{ deleted: true }>('deleteMyCollection', { params: { id }, headers: precondition(options) });
  }

  /** One page of a workspace's shared collections. */
  listWorkspaceCollectionsPage(workspaceId: string, params: PageParams = {}): Promise<CollectionPage<TeamCollection>> {
    return this.call<CollectionPage<TeamCollection>>('listWorkspaceCollections', {
      params: { id: workspaceId },
      query: { ...params },
    });
  }

  /** Every shared collection of a workspace, page after page (at most 500: ten requests). */
  listWorkspaceCollections(workspaceId: string): Promise<TeamCollection[]> {
    return allPages(async (page) =>
      collectionsOf(await this.listWorkspaceCollectionsPage(workspaceId, { page, limit: 50 })),
    );
  }

  async createWorkspaceCollection(
    workspaceId: string,
    input: CreateCollectionInput,
    options: CreateOptions = {},
  ): Promise<TeamCollection> {
    const call = { params: { id: workspaceId }, body: input, headers: idempotency(options) };
    return (await this.call<{ collection: TeamCollection }>('createWorkspaceCollection', call)).collection;
  }

  async getWorkspaceCollection(workspaceId: string, collectionId: string): Promise<TeamCollection> {
    return (await this.getWorkspaceCollectionTagged(workspaceId, collectionId)).collection;
  }

  /** The shared collection and its ETag, to send back as `ifMatch` of a later write. */
  getWorkspaceCollectionTagged(workspaceId: string, collectionId: string): Promise<Tagged<TeamCollection>> {
    return this.tagged<TeamCollection>('getWorkspaceCollection', { params: { id: workspaceId, collectionId } });
  }

  async updateWorkspaceCollection(
    workspaceId: string,
    collectionId: string,
    patch: TeamCollectionPatch,
    options: WriteOptions = {},
  ): Promise<TeamCollection> {
    return (await this.updateWorkspaceCollectionTagged(workspaceId, collectionId, patch, options)).collection;
  }

  /** `updateWorkspaceCollection`, also answering the new ETag. */
  updateWorkspaceCollectionTagged(
    workspaceId: string,
    collectionId: string,
    patch: TeamCollectionPatch,
    options: WriteOptions = {},
  ): Promise<Tagged<TeamCollection>> {
    const call = { params: { id: workspaceId, collectionId }, body: patch, headers: precondition(options) };
    return this.tagged<TeamCollection>('updateWorkspaceCollection', call);
  }

  async deleteWorkspaceCollection(
    workspaceId: string,
    collectionId: string,
    options: WriteOptions = {},
  ): Promise<void> {
    await this.call<{ deleted: true }>('deleteWorkspaceCollection', {
      params: { id: workspaceId, collectionId },
      headers: precondition(options),
    });
  }

  /**
   * Removes a member from a workspace (owners: anyone; admins: admins,
   * members and viewers), or leaves it with `accountId` `'me'`. The last
   * owner cannot leave (ApiError 409).
   */
  async removeWorkspaceMember(workspaceId: string, accountId: string): Promise<void> {
    await this.call<{ removed: true }>('removeWorkspaceMember', { params: { id: workspaceId, accountId } });
  }

  /** One active catalog item with every field; ApiError 404 for a draft, archived, deleted or unknown slug. */
  async getSkill(slug: string): Promise<CatalogItem> {
    return (await this.call<{ skill: CatalogItem }>('getSkill', { params: { slug } })).skill;
  }

  /** One page of an item's releases, newest first by precedence, yanked ones included. */
  listSkillVersionsPage(slug: string, params: PageParams = {}): Promise<ReleasePage> {
    return this.call<ReleasePage>('listSkillVersions', { params: { slug }, query: { ...params } });
  }

  /** One release with each scanner's latest scan and the override in force; a yanked one too. */
  async getSkillVersion(slug: string, version: string): Promise<ReleaseDetail> {
    return (await this.call<{ release: ReleaseDetail }>('getSkillVersion', { params: { slug, version } })).release;
  }

  /** One page of a release's verdict history (scans, overrides, cleared overrides), newest first. */
  listSkillVersionVerdictsPage(slug: string, version: string, params: PageParams = {}): Promise<VerdictHistoryPage> {
    return this.call<VerdictHistoryPage>('listSkillVersionVerdicts', {
      params: { slug, version },
      query: { ...params },
    });
  }

  /** Reports an item to the operators; ApiError 429 beyond the account's daily limit. */
  async reportSkill(slug: string, input: CreateReportInput): Promise<Report> {
    return (await this.call<{ report: Report }>('reportSkill', { params: { slug }, body: input })).report;
  }

  /** One page of the key owner's private skills. */
  listMyPrivateSkillsPage(params: PageParams = {}): Promise<PrivateSkillPage> {
    return this.call<PrivateSkillPage>('listMyPrivateSkills', { query: { ...params } });
  }

  /** A private skill only the key owner sees, to add with `privateSkillId` (at most 500 per account). */
  async createMyPrivateSkill(input: CreatePrivateSkillInput): Promise<PrivateSkill> {
    return (await this.call<{ skill: PrivateSkill }>('createMyPrivateSkill', { body: input })).skill;
  }

  /** One page of the workspaces the key owner belongs to, with its role in each. */
  listWorkspacesPage(params: PageParams = {}): Promise<WorkspacePage> {
    return this.call<WorkspacePage>('listWorkspaces', { query: { ...params } });
  }

  /** Every workspace the key owner belongs to, page after page. */
  listWorkspaces(): Promise<Workspace[]> {
    return allPages(async (page) => {
      const { workspaces, pagination } = await this.listWorkspacesPage({ page, limit: 50 });
      return { items: workspaces, pagination };
    });
  }

  /** A new workspace owned by the key owner (needs `workspaces:manage`). */
  async createWorkspace(input: { name: string }): Promise<Workspace> {
    return (await this.call<{ workspace: Workspace }>('createWorkspace', { body: input })).workspace;
  }

  async getWorkspace(workspaceId: string): Promise<Workspace> {
    return (await this.call<{ workspace: Workspace }>('getWorkspace', { params: { id: workspaceId } })).workspace;
  }

  /** One page of a workspace's members, owners first, with emails and names. */
  listWorkspaceMembersPage(workspaceId: string, params: PageParams = {}): Promise<MemberPage> {
    return this.call<MemberPage>('listWorkspaceMembers', { params: { id: workspaceId }, query: { ...params } });
  }

  /** Every member of a workspace, page after page. */
  listWorkspaceMembers(workspaceId: string): Promise<WorkspaceMember[]> {
    return allPages(async (page) => {
      const { members, pagination } = await this.listWorkspaceMembersPage(workspaceId, { page, limit: 50 });
      return { items: members, pagination };
    });
  }

  /** Changes a member's role (`'me'`: the key owner); the last owner cannot be demoted (ApiError 409). */
  async setWorkspaceMemberRole(workspaceId: string, accountId: string, role: WorkspaceRole): Promise<MemberRole> {
    return (
      await this.call<{ member: MemberRole }>('setWorkspaceMemberRole', {
        params: { id: workspaceId, accountId },
        body: { role },
      })
    ).member;
  }

  /** The pending invitations (owners and admins). */
  async listWorkspaceInvitations(workspaceId: string): Promise<Invitation[]> {
    return (await this.call<{ invitations: Invitation[] }>('listWorkspaceInvitations', { params: { id: workspaceId } }))
      .invitations;
  }

  /** Invites by a link (`url`, shown this once); mailed to `email` when the server has SMTP. */
  async createWorkspaceInvitation(workspaceId: string, input: CreateInvitationInput): Promise<CreatedInvitation> {
    return (
      await this.call<{ invitation: CreatedInvitation }>('createWorkspaceInvitation', {
        params: { id: workspaceId },
        body: input,
      })
    ).invitation;
  }

  async revokeWorkspaceInvitation(workspaceId: string, invitationId: string): Promise<void> {
    await this.call<{ revoked: true }>('revokeWorkspaceInvitation', { params: { id: workspaceId, invitationId } });
  }
}

function idempotency(options: CreateOptions): Record<string, string> {
  return options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {};
}

function precondition(options: WriteOptions): Record<string, string> {
  return options.ifMatch ? { 'If-Match': options.ifMatch } : {};
}

/** A collection list page as allPages reads it. */
function collectionsOf<C>(page: CollectionPage<C>): { items: C[]; pagination: Pagination } {
  return { items: page.collections, pagination: page.pagination };
}
