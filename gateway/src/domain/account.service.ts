/**
 * The admin rules on accounts (keys: api-key.service.ts). A plan change
 * tells the KeyAuthenticator, so it applies at once here.
 */
import { NotFoundError, isUuid, type Plan } from '@skills/common';
import type { Account, AccountRepository, ApiKeySummary, KeyStore } from './account';
import type { KeyAuthenticator } from './key-authenticator';

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
