/**
 * The admin rules on accounts and keys. Every change that affects
 * authentication tells the KeyAuthenticator, so it applies at once here.
 */
import { NotFoundError, isUuid, type Plan } from '@skills/common';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key';
import type { Account, AccountRepository, ApiKeySummary, KeyStore } from './account';
import type { KeyAuthenticator } from './key-authenticator';

export interface IssuedKey {
  id: string;
  name: string | null;
  prefix: string;
  /** the plaintext, returned once and never stored */
  key: string;
}

export class AccountService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly keys: KeyStore,
    private readonly authenticator: KeyAuthenticator,
  ) {}

  create(input: { email: string; name?: string | null; plan: Plan }): Promise<Account> {
    return this.accounts.create({ email: input.email, name: input.name ?? null, plan: input.plan });
  }

  async get(id: string): Promise<{ account: Account; apiKeys: ApiKeySummary[] }> {
    const account = await this.require(id);
    return { account, apiKeys: await this.keys.listByAccount(id) };
  }

  async changePlan(id: string, plan: Plan): Promise<Account> {
    const account = isUuid(id) ? await this.accounts.updatePlan(id, plan) : undefined;
    if (!account) throw new NotFoundError('account.notFound');
    this.authenticator.forgetAccount(id);
    return account;
  }

  async issueKey(accountId: string, name: string | null): Promise<IssuedKey> {
    await this.require(accountId);
    const key = generateApiKey();
    const summary = await this.keys.insert({ accountId, name, prefix: displayPrefix(key), keyHash: hashApiKey(key) });
    return { id: summary.id, name: summary.name, prefix: summary.prefix, key };
  }

  /** Idempotent: revoking a revoked key answers the same. */
  async revokeKey(keyId: string): Promise<void> {
    const revoked = isUuid(keyId) ? await this.keys.revoke(keyId) : undefined;
    if (!revoked) throw new NotFoundError('apiKey.notFound');
    this.authenticator.forgetKey(keyId);
  }

  /** For admin calls proxied on behalf of an account: 404 when it does not exist. */
  async requireExists(id: string): Promise<void> {
    if (!isUuid(id) || !(await this.accounts.exists(id))) throw new NotFoundError('account.notFound');
  }

  private async require(id: string): Promise<Account> {
    const account = isUuid(id) ? await this.accounts.findById(id) : undefined;
    if (!account) throw new NotFoundError('account.notFound');
    return account;
  }
}
