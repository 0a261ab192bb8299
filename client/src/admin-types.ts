/**
 * Request and answer types of the admin surface (`/admin/v1`, docs/api.md
 * "The admin surface"), written by hand from the OpenAPI document like the
 * public ones; gateway/test/unit/openapi-client-answers.test.ts validates a full
 * value of each against the document. Admin answers are open objects: only the fields
 * an operator's tool reads are typed.
 */
import type { Account, ApiKey, NewApiKey, Scope } from './session-types';
import type { ItemDetails, ItemStatus, ItemType, Judgement, WorkspaceRole } from './types';

export type Plan = Account['plan'];

export interface CreateAccountInput {
  email: string;
  plan: Plan;
  name?: string | null;
}

/** An account with every key it holds, revoked and expired ones included (oldest first). */
export interface AccountDetail {
  account: Account;
  apiKeys: ApiKey[];
}

export interface IssueApiKeyInput {
  name?: string | null;
  /** absent: every scope */
  scopes?: Scope[];
  /** whole days; null: never expires (refused while there is a maximum lifetime); absent: the longest lifetime allowed */
  expiresInDays?: number | null;
  /** the exact end (ISO 8601) instead of `expiresInDays`: at least a day and at most the maximum lifetime from now */
  expiresAt?: string;
}

export interface RolledApiKey {
  apiKey: NewApiKey;
  previous: ApiKey;
}

/** A one-time link for a person, valid once for an hour. */
export interface OneTimeLink {
  purpose: 'sign-in' | 'password-reset';
  url: string;
  expiresAt: string;
}

/** An invitation to sign up (`SIGNUP_MODE=invite`), valid once for 7 days. */
export interface SignUpInvitation {
  url: string;
  expiresAt: string;
}

/**
 * A public item as `PUT /admin/v1/skills/{slug}` and each import line take it
 * (with `slug`); a registry detail absent or null clears it, except
 * `downloads`: absent, the stored count stays.
 */
export interface SkillInput extends Partial<ItemDetails> {
  name: string;
  category: string;
  description?: string;
  type?: ItemType;
  status?: Exclude<ItemStatus, 'deleted'>;
  tags?: string[];
}

export interface AdminSkill {
  slug: string;
  name: string;
  type: ItemType;
  status: ItemStatus;
  id?: string;
  category?: string;
  updatedAt?: string;
}

/** One page of every catalog item; pass `next` as `after` for the following one. */
export interface AdminItemPage {
  items: Array<{ id: string; name: string; status: ItemStatus }>;
  next: string | null;
}

export interface AuditEvent {
  id: string;
  at: string;
  action: string;
  actor: { kind: 'admin' | 'account' | 'scanner' | 'anonymous'; accountId?: string; scannerId?: string };
  targetAccountId: string | null;
  target: string | null;
  requestId: string;
  clientAddress: string;
  details: Record<string, unknown>;
}

export interface AuditEventPage {
  events: AuditEvent[];
  /** pass as `before` for the next, older page; null on the last */
  nextBefore: string | null;
}

export interface AuditQuery {
  action?: string;
  accountId?: string;
  before?: string;
  limit?: number;
}

export interface AdminWorkspace {
  id: string;
  name: string;
}

export interface AdminMember {
  workspaceId: string;
  accountId: string;
  role: WorkspaceRole;
}

/** A reindex job (docs/elasticsearch.md "Reindex"). */
export interface ReindexJob {
  id: string;
  status: 'running' | 'succeeded' | 'failed';
  /** items written to the new index so far */
  indexed: number;
  /** items to write; absent while the source cannot count them */
  total?: number;
  startedAt: string;
  finishedAt?: string;
  /** why it failed */
  error?: string;
}

/** What a scanner records on a release (its credential names the scanner). */
export interface VerdictInput {
  verdict: Judgement;
  summary: string;
  reportUrl?: string;
}
