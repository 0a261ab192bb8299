/**
 * How many mails one address, and one workspace's invitations, may cause per
 * day, so that nobody can use the sign-up, reset or invitation forms to flood
 * a mailbox or our mail reputation. Counted on the same sliding windows as the
 * request budgets (sliding-window.ts): in memory per replica, or in Redis when
 * the replicas share it.
 *
 * An address is counted whether or not it has an account: the 429 of a reset
 * or sign-up request then says nothing about who is registered.
 */
import { RateLimitError, type MessageKey } from '@skills/common';
import { retryAfterMs, type SlidingWindowStore } from './sliding-window';

/** Mails per sliding day; 0 turns that quota off. */
export interface MailQuotaLimits {
  /** verification, sign-up notice, reset and invitation mails to one address */
  perAddress: number;
  /** invitation mails of one workspace */
  perWorkspace: number;
}

export const DEFAULT_MAIL_QUOTA: Readonly<MailQuotaLimits> = Object.freeze({ perAddress: 5, perWorkspace: 100 });

const DAY_MS = 86_400_000;

export class MailQuota {
  constructor(private readonly options: { store: SlidingWindowStore; limits: MailQuotaLimits; windowMs?: number }) {}

  /** Counts one mail to `email` (case-insensitive), or throws 429 `mail.quotaAddress` with Retry-After. */
  async takeAddress(email: string): Promise<void> {
    await this.take(`mail:address:${email.trim().toLowerCase()}`, this.options.limits.perAddress, 'mail.quotaAddress');
  }

  /** Counts one invitation mail of `workspaceId`, or throws 429 `mail.quotaWorkspace` with Retry-After. */
  async takeWorkspace(workspaceId: string): Promise<void> {
    await this.take(`mail:workspace:${workspaceId}`, this.options.limits.perWorkspace, 'mail.quotaWorkspace');
  }

  private async take(id: string, limit: number, message: MessageKey): Promise<void> {
    if (limit <= 0) return;
    const windowMs = this.options.windowMs ?? DAY_MS;
    const { allowed, counts, elapsedMs } = await this.options.store.take(id, limit, windowMs);
    if (allowed) return;
    const hours = Math.max(1, Math.ceil(retryAfterMs(counts, elapsedMs, windowMs, limit) / 3_600_000));
    throw new RateLimitError(message, { hours }, { headers: { 'Retry-After': String(hours * 3600) } });
  }
}
