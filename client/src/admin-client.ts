/**
 * The operator's client of `/admin/v1` (docs/api.md "The admin surface"),
 * with the admin token: accounts and their keys, links and sessions, the
 * catalog (one item, the streamed NDJSON import, every item page by page),
 * workspaces, the audit trail and the reindex; the trust operations come
 * from AdminTrustMethods. The admin CLI and `npm start`'s seeding use it.
 */
import type {
  AccountDetail,
  AdminItemPage,
  AdminMember,
  AdminSkill,
  AdminWorkspace,
  AuditEventPage,
  AuditQuery,
  CreateAccountInput,
  IssueApiKeyInput,
  OneTimeLink,
  Plan,
  ReindexJob,
  RolledApiKey,
  SignUpInvitation,
  SkillInput,
} from './admin-types';
import { AdminTrustMethods } from './admin-trust-client';
import type { Account, NewApiKey, OwnApiKeys } from './session-types';
import type { CreatePrivateSkillInput, WorkspaceRole } from './types';

export { type SkillsAdminClientOptions } from './admin-trust-client';

export class SkillsAdminClient extends AdminTrustMethods {
  /** A new account; its email taken is ApiError 409. */
  async createAccount(input: CreateAccountInput): Promise<Account> {
    return (await this.call<{ account: Account }>('adminCreateAccount', { body: input })).account;
  }

  /** The account and every key it holds; an unknown id is ApiError 404. */
  getAccount(accountId: string): Promise<AccountDetail> {
    return this.call<AccountDetail>('adminGetAccount', { params: { id: accountId } });
  }

  /** Changes the plan; it holds from the account's next request. */
  async setPlan(accountId: string, plan: Plan): Promise<Account> {
    return (await this.call<{ account: Account }>('adminUpdateAccount', { params: { id: accountId }, body: { plan } }))
      .account;
  }

  /** A one-time console sign-in or password reset link for the account (valid once, for an hour). */
  async createLink(accountId: string, purpose: OneTimeLink['purpose']): Promise<OneTimeLink> {
    return (await this.call<{ link: OneTimeLink }>('adminCreateLink', { params: { id: accountId }, body: { purpose } }))
      .link;
  }

  /** Ends every console session of the account. */
  signOutEverywhere(accountId: string): Promise<{ signedOut: true | number }> {
    return this.call<{ signedOut: true | number }>('adminSignOutEverywhere', { params: { id: accountId } });
  }

  /** A one-time link to sign up where sign-up is by invitation. */
  async createSignUpInvitation(): Promise<SignUpInvitation> {
    return (await this.call<{ invitation: SignUpInvitation }>('adminCreateInvitation', {})).invitation;
  }

  listApiKeys(accountId: string): Promise<OwnApiKeys> {
    return this.call<OwnApiKeys>('adminListApiKeys', { params: { id: accountId } });
  }

  /** A new key for the account; keep `key`, it is not shown again. */
  async issueApiKey(accountId: string, input: IssueApiKeyInput = {}): Promise<NewApiKey> {
    return (await this.call<{ apiKey: NewApiKey }>('adminCreateApiKey', { params: { id: accountId }, body: input }))
      .apiKey;
  }

  /** Refused by every gateway replica within 1 s; revoking a revoked key answers the same. */
  async revokeApiKey(keyId: string): Promise<void> {
    await this.call('adminRevokeApiKey', { params: { keyId } });
  }

  /** A new key with the same name and scopes; the old one stays valid `graceSeconds` more. */
  rollApiKey(keyId: string, graceSeconds: number): Promise<RolledApiKey> {
    return this.call<RolledApiKey>('adminRollApiKey', { params: { keyId }, body: { graceSeconds } });
  }

  /** Creates or replaces a public item (an event makes search show it shortly after). */
  async putSkill(slug: string, input: SkillInput): Promise<AdminSkill> {
    return (await this.call<{ skill: AdminSkill }>('adminPutSkill', { params: { slug }, body: input })).skill;
  }

  /** Collections keep the entry and show it as deleted. */
  async deleteSkill(slug: string): Promise<void> {
    await this.call('adminDeleteSkill', { params: { slug } });
  }

  /**
   * Imports NDJSON (one item a line: `slug` plus SkillInput), streamed as it
   * is read, up to 50 MB; resolves to the count imported. A bad line is
   * ApiError 400 naming it, and nothing is imported then.
   */
  async importSkills(ndjson: string | ReadableStream<Uint8Array>): Promise<number> {
    return (
      await this.call<{ imported: number }>('adminImportSkills', {
        raw: { body: ndjson, contentType: 'application/x-ndjson' },
      })
    ).imported;
  }

  /** One page of every catalog item, public and private, in any status. */
  listItemsPage(params: { after?: string; limit?: number } = {}): Promise<AdminItemPage> {
    return this.call<AdminItemPage>('adminListItems', { query: { ...params } });
  }

  /** The audit trail, newest first. */
  listAuditEvents(query: AuditQuery = {}): Promise<AuditEventPage> {
    return this.call<AuditEventPage>('adminListAuditEvents', { query: { ...query } });
  }

  async createPrivateSkill(accountId: string, input: CreatePrivateSkillInput): Promise<{ id: string }> {
    return (
      await this.call<{ skill: { id: string } }>('adminCreatePrivateSkill', { params: { id: accountId }, body: input })
    ).skill;
  }

  /** A workspace whose owner is `ownerAccountId`. */
  async createWorkspace(input: { name: string; ownerAccountId: string }): Promise<AdminWorkspace> {
    return (await this.call<{ workspace: AdminWorkspace }>('adminCreateWorkspace', { body: input })).workspace;
  }

  /** Adds a member or changes their role; the last owner cannot be demoted (ApiError 409). */
  async setWorkspaceMember(workspaceId: string, accountId: string, role: WorkspaceRole): Promise<AdminMember> {
    return (
      await this.call<{ member: AdminMember }>('adminSetWorkspaceMember', {
        params: { id: workspaceId, accountId },
        body: { role },
      })
    ).member;
  }

  async removeWorkspaceMember(workspaceId: string, accountId: string): Promise<void> {
    await this.call('adminRemoveWorkspaceMember', { params: { id: workspaceId, accountId } });
  }

  /** Starts rebuilding the search index; another job running is ApiError 409. */
  async startReindex(): Promise<ReindexJob> {
    return (await this.call<{ job: ReindexJob }>('adminStartReindex', {})).job;
  }

  async getReindex(jobId: string): Promise<ReindexJob> {
    return (await this.call<{ job: ReindexJob }>('adminGetReindex', { params: { jobId } })).job;
  }
}
