/**
 * The rules on an account's API keys, the same for the console (a session,
 * own keys only) and the admin API (any account): scopes, expiry within the
 * operator's maximum, a cap on active keys, revoke, and roll with a grace
 * period. Every change is written with its audit record in one transaction,
 * and every change that affects authentication tells the KeyAuthenticator,
 * so it applies at once on this replica.
 */
import { ConflictError, InputError, NotFoundError, isUuid } from '@skills/common';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key';
import type { ApiKeySummary, NewKey } from '../accounts/account';
import type { AuditContext } from '../audit/audit';
import type { KeyAuthenticator } from './key-authenticator';
import type { GatewayRepositories, GatewayStore } from '../ports';
import { SCOPES, type Scope } from './scopes';

export interface KeyPolicy {
  /** keys neither revoked nor expired an account may hold */
  maxActiveKeys: number;
  /** the longest lifetime a key may be given; null: keys may also never expire */
  maxLifetimeDays: number | null;
}

export interface KeyRequest {
  name: string | null;
  /** absent: every scope (the admin API's default) */
  scopes?: readonly Scope[];
  /** null: never expires; absent (and no `expiresAt`): the longest allowed */
  expiresInDays?: number | null;
  /** an exact end instead of a number of days (the admin API), held to the same bounds */
  expiresAt?: Date;
  /** the workspace whose policy every search of the key applies; the caller checked membership; absent or null: unbound */
  workspaceId?: string | null;
}

/** A new key with its plaintext, shown once and never stored. */
export interface IssuedKey extends ApiKeySummary {
  key: string;
}

const DAY_MS = 86_400_000;
/** The longest lifetime any key may be given, with or without an operator's maximum (the bound of `expiresInDays`). */
export const LONGEST_KEY_DAYS = 3650;

export class ApiKeyService {
  private readonly now: () => number;

  constructor(
    private readonly deps: {
      store: GatewayStore;
      authenticator: KeyAuthenticator;
      policy: KeyPolicy;
      now?: () => number;
    },
  ) {
    this.now = deps.now ?? Date.now;
  }

  /** The longest lifetime a new key may be given; null: keys may also never expire. */
  get maxLifetimeDays(): number | null {
    return this.deps.policy.maxLifetimeDays;
  }

  /** Keys revoked elsewhere in a transaction of their own (a password reset): this replica stops accepting them at once. */
  forget(keyIds: readonly string[]): void {
    for (const id of keyIds) this.deps.authenticator.forgetKey(id);
  }

  async list(accountId: string): Promise<ApiKeySummary[]> {
    const { repos } = this.deps.store;
    await this.requireAccount(repos, accountId);
    return repos.keys.listByAccount(accountId);
  }

  /**
   * The cap is checked in the insert's transaction with the account's row
   * held, so concurrent issues for one account count one after the other
   * (counting alone, two could each see room for one more).
   */
  issue(accountId: string, request: KeyRequest, context: AuditContext): Promise<IssuedKey> {
    return this.deps.store.transaction(async (repos) => {
      if (!isUuid(accountId) || !(await repos.accounts.lockForKeyChange(accountId)))
        throw new NotFoundError('account.notFound');
      await this.checkCap(repos, accountId, 1, 0);
      const { key, input } = this.newKey(
        accountId,
        request.name,
        request.scopes ?? SCOPES,
        this.expiryOf(request),
        request.workspaceId ?? null,
      );
      const summary = await repos.keys.insert(input);
      await repos.audit.append({
        ...context,
        action: 'api_key.issue',
        targetAccountId: accountId,
        target: summary.id,
        details: auditDetails(summary),
      });
      return { ...summary, key };
    });
  }

  /** Idempotent: revoking a revoked key answers the same (and is recorded again). `ownerId`: only that account's key is found. */
  async revoke(keyId: string, context: AuditContext, ownerId?: string): Promise<void> {
    await this.deps.store.transaction(async (repos) => {
      const key = await this.requireKey(repos, keyId, ownerId);
      await repos.keys.revoke(keyId);
      await repos.audit.append({ ...context, action: 'api_key.revoke', targetAccountId: key.accountId, target: keyId });
    });
    this.deps.authenticator.forgetKey(keyId);
  }

  /**
   * A new key with the same name and scopes, and the old one's lifetime from
   * now held to today's maximum (a key made under a longer or no maximum is
   * not renewed past the one in force; one that never expired gets the
   * maximum); the old one stays valid `graceSeconds` more,
   * or is revoked at once for 0. One transaction: the new key, the old one's
   * end and the audit record. An account at its cap can roll: the key being
   * replaced may exceed the cap by one for its grace, but a second key in
   * grace may not (rolling again with a grace is refused as an issue would
   * be; without a grace the count does not change).
   */
  async roll(
    keyId: string,
    graceSeconds: number,
    context: AuditContext,
    ownerId?: string,
  ): Promise<{ apiKey: IssuedKey; previous: ApiKeySummary }> {
    const rolled = await this.deps.store.transaction(async (repos) => {
      const old = await this.requireKey(repos, keyId, ownerId);
      const now = this.now();
      if (old.revokedAt !== null || (old.expiresAt !== null && Date.parse(old.expiresAt) <= now))
        throw new ConflictError('apiKey.notActive');
      await repos.accounts.lockForKeyChange(old.accountId);
      await this.checkCap(repos, old.accountId, graceSeconds > 0 ? 1 : 0, 1);
      const lifetime = old.expiresAt === null ? null : Date.parse(old.expiresAt) - Date.parse(old.createdAt);
      // the new key keeps the binding: it replaces the old one for the same agent
      const { key, input } = this.newKey(
        old.accountId,
        old.name,
        old.scopes,
        this.rolledExpiry(lifetime, now),
        old.workspaceId,
      );
      const summary = await repos.keys.insert(input);
      await repos.keys.end(keyId, graceSeconds > 0 ? new Date(now + graceSeconds * 1000) : null);
      const details = { ...auditDetails(summary), previous: keyId, graceSeconds };
      await repos.audit.append({
        ...context,
        action: 'api_key.roll',
        targetAccountId: old.accountId,
        target: summary.id,
        details,
      });
      const previous = (await repos.keys.findById(keyId)) ?? old;
      return { apiKey: { ...summary, key }, previous: withoutOwner(previous) };
    });
    this.deps.authenticator.forgetKey(keyId);
    return rolled;
  }

  private newKey(
    accountId: string,
    name: string | null,
    scopes: readonly Scope[],
    expiresAt: Date | null,
    workspaceId: string | null,
  ): { key: string; input: NewKey } {
    const key = generateApiKey();
    const ordered = SCOPES.filter((s) => scopes.includes(s));
    return {
      key,
      input: {
        accountId,
        name,
        prefix: displayPrefix(key),
        keyHash: hashApiKey(key),
        scopes: ordered,
        expiresAt,
        workspaceId,
      },
    };
  }

  private expiryOf(request: Pick<KeyRequest, 'expiresInDays' | 'expiresAt'>): Date | null {
    if (request.expiresAt !== undefined) return this.exactExpiry(request.expiresAt);
    const days = request.expiresInDays;
    const max = this.deps.policy.maxLifetimeDays;
    if (days === null) {
      if (max !== null) throw new InputError('apiKey.noExpiryRefused', { limit: max });
      return null;
    }
    const chosen = days ?? max;
    if (chosen === null) return null;
    if (max !== null && chosen > max) throw new InputError('apiKey.noExpiryRefused', { limit: max });
    return new Date(this.now() + chosen * DAY_MS);
  }

  /**
   * An end given as an instant, within the bounds of `expiresInDays`: a day
   * from now at least, the operator's maximum (else ten years) at most; past
   * the maximum it is refused with the words a number of days gets.
   */
  private exactExpiry(at: Date): Date {
    const max = this.deps.policy.maxLifetimeDays;
    const lifetime = at.getTime() - this.now();
    if (max !== null && lifetime > max * DAY_MS) throw new InputError('apiKey.noExpiryRefused', { limit: max });
    if (!(lifetime >= DAY_MS && lifetime <= LONGEST_KEY_DAYS * DAY_MS))
      throw new InputError('apiKey.expiresAtRange', { limit: max ?? LONGEST_KEY_DAYS });
    return at;
  }

  /** A rolled key's end: the old lifetime (null: never) from `now`, never past today's maximum. */
  private rolledExpiry(lifetime: number | null, now: number): Date | null {
    const max = this.deps.policy.maxLifetimeDays;
    if (max === null) return lifetime === null ? null : new Date(now + lifetime);
    return new Date(now + Math.min(lifetime ?? Infinity, max * DAY_MS));
  }

  /** Refuses a change that adds `added` active keys past the cap (plus `allowance`, a roll's key in grace). */
  private async checkCap(
    repos: GatewayRepositories,
    accountId: string,
    added: number,
    allowance: number,
  ): Promise<void> {
    const limit = this.deps.policy.maxActiveKeys;
    const active = await repos.keys.countActive(accountId, new Date(this.now()));
    if (added > 0 && active + added > limit + allowance) throw new ConflictError('apiKey.tooMany', { limit });
  }

  private async requireAccount(repos: GatewayRepositories, id: string): Promise<void> {
    if (!isUuid(id) || !(await repos.accounts.exists(id))) throw new NotFoundError('account.notFound');
  }

  /** Another account's key is "not found": its existence is not revealed. */
  private async requireKey(
    repos: GatewayRepositories,
    keyId: string,
    ownerId?: string,
  ): Promise<ApiKeySummary & { accountId: string }> {
    const found = isUuid(keyId) ? await repos.keys.findById(keyId) : undefined;
    if (!found || (ownerId !== undefined && found.accountId !== ownerId)) throw new NotFoundError('apiKey.notFound');
    return found;
  }
}

function withoutOwner(key: ApiKeySummary & { accountId?: string }): ApiKeySummary {
  const { accountId: _owner, ...summary } = key;
  return summary;
}

/** What the audit keeps of a key: never the key or its hash, only how to recognise it. */
function auditDetails(key: ApiKeySummary): {
  prefix: string;
  name: string | null;
  scopes: string;
  expiresAt: string | null;
  workspaceId: string | null;
} {
  return {
    prefix: key.prefix,
    name: key.name,
    scopes: key.scopes.join(' '),
    expiresAt: key.expiresAt,
    workspaceId: key.workspaceId,
  };
}
