/**
 * How many mails a request may cause per day, so that nobody can use the
 * sign-up, sign-in, reset or invitation forms to flood a mailbox or our mail
 * reputation, and nobody can spend a person's quota to keep their own reset
 * from them. Counted on the same sliding windows as the request budgets
 * (sliding-window.ts): in memory per replica, or in Redis when the replicas
 * share it.
 *
 * - per address, purpose and requester: one client address (or workspace)
 *   gets `perAddress` mails of one purpose to one address a day; what one
 *   requester spends is never another's;
 * - per address: `perRecipient` mails of every purpose and requester
 *   together, except that a requester's first mail of the day to that
 *   address always goes: whoever fills the address's quota from many
 *   addresses still cannot keep the owner's own first request out.
 *
 * An address is counted whether or not it has an account: the 429 of a reset
 * or sign-up request then says nothing about who is registered.
 */
import { RateLimitError, type MessageKey } from '@skills/common';
import { retryAfterMs, weightedCount, type SlidingWindowStore, type TakeResult } from './sliding-window';

/** Mails per sliding day; 0 turns that quota off. */
export interface MailQuotaLimits {
  /** mails of one purpose to one address from one requester */
  perAddress: number;
  /** mails to one address, every purpose and requester together (a requester's first of the day excepted) */
  perRecipient: number;
  /** invitation mails of one workspace */
  perWorkspace: number;
}

/** What a request mails: a sign-up (verification or notice), a verification sent again at sign-in, a reset, an invitation. */
export type MailPurpose = 'sign-up' | 'sign-in' | 'reset' | 'invitation';

export const DEFAULT_MAIL_QUOTA: Readonly<MailQuotaLimits> = Object.freeze({
  perAddress: 5,
  perRecipient: 20,
  perWorkspace: 100,
});

const DAY_MS = 86_400_000;

export class MailQuota {
  constructor(private readonly options: { store: SlidingWindowStore; limits: MailQuotaLimits; windowMs?: number }) {}

  /**
   * Counts one mail of `purpose` to `email` (case-insensitive) asked by `requester` (a client address key, or
   * `workspace:<id>`), or throws 429 `mail.quotaAddress` with Retry-After.
   */
  async take(purpose: MailPurpose, email: string, requester: string): Promise<void> {
    const address = email.trim().toLowerCase();
    const { perAddress, perRecipient } = this.options.limits;
    const own = await this.takeWithin(`mail:${purpose}:${requester}:${address}`, perAddress, 'mail.quotaAddress');
    const first = weightedCount(own.counts, own.elapsedMs, this.windowMs) < 2;
    await this.takeWithin(`mail:address:${address}`, first ? 0 : perRecipient, 'mail.quotaAddress');
  }

  /** Counts one invitation mail of `workspaceId`, or throws 429 `mail.quotaWorkspace` with Retry-After. */
  async takeWorkspace(workspaceId: string): Promise<void> {
    await this.takeWithin(`mail:workspace:${workspaceId}`, this.options.limits.perWorkspace, 'mail.quotaWorkspace');
  }

  private get windowMs(): number {
    return this.options.windowMs ?? DAY_MS;
  }

  /** Counts one under `limit` (0: counted, never refused); what was counted. */
  private async takeWithin(id: string, limit: number, message: MessageKey): Promise<TakeResult> {
    const taken = await this.options.store.take(id, limit > 0 ? limit : Number.MAX_SAFE_INTEGER, this.windowMs);
    if (taken.allowed) return taken;
    const hours = Math.max(1, Math.ceil(retryAfterMs(taken.counts, taken.elapsedMs, this.windowMs, limit) / 3_600_000));
    throw new RateLimitError(message, hours * 3600, { hours });
  }
}
