/**
 * The admin rules on accounts (keys: api-key.service.ts). Every change is
 * written with its audit record in one transaction, and a plan change tells
 * the KeyAuthenticator, so it applies at once here.
 */
import { NotFoundError, isUuid, type Plan } from '@skills/common';
import type { Account, ApiKeySummary } from './account';
import type { AuditContext } from '../audit/audit';
import type { KeyAuthenticator } from '../keys/key-authenticator';
import type { GatewayRepositories, GatewayStore } from '../ports';

export class AccountService {
  constructor(
    private readonly store: GatewayStore,
    private readonly authenticator: KeyAuthenticator,
  ) {}

  create(input: { email: string; name?: string | null; plan: Plan }, context: AuditContext): Promise<Account> {
    return this.store.transaction(async (repos) => {
      const account = await repos.accounts.create({ email: input.email, name: input.name ?? null, plan: input.plan });
      await repos.audit.append({
        ...context,
        action: 'account.create',
        targetAccountId: account.id,
        details: { plan: account.plan },
      });
      return account;
    });
  }

  async get(id: string): Promise<{ account: Account; apiKeys: ApiKeySummary[] }> {
    const account = await this.require(this.store.repos, id);
    return { account, apiKeys: await this.store.repos.keys.listByAccount(id) };
  }

  async changePlan(id: string, plan: Plan, context: AuditContext): Promise<Account> {
    const account = await this.store.transaction(async (repos) => {
      const before = await this.require(repos, id);
      const after = await repos.accounts.updatePlan(id, plan);
      if (!after) throw new NotFoundError('account.notFound');
      const details = { from: before.plan, to: plan };
      await repos.audit.append({ ...context, action: 'account.plan_change', targetAccountId: id, details });
      return after;
    });
    this.authenticator.forgetAccount(id);
    return account;
  }

  /** For admin calls proxied on behalf of an account: 404 when it does not exist. */
  async requireExists(id: string): Promise<void> {
    if (!isUuid(id) || !(await this.store.repos.accounts.exists(id))) throw new NotFoundError('account.notFound');
  }

  private async require(repos: GatewayRepositories, id: string): Promise<Account> {
    const account = isUuid(id) ? await repos.accounts.findById(id) : undefined;
    if (!account) throw new NotFoundError('account.notFound');
    return account;
  }
}
