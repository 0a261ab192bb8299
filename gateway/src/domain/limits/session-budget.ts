/**
 * Requests an account may make with its console sessions per window,
 * whatever its plan: without it a free account's session would be unlimited
 * API use, and a stolen or scripted cookie would call without bound. Counted
 * per account, not per session, so signing in again gives no more budget; on
 * its own key, so the console does not spend the plan budget's share twice
 * under one name. Same sliding windows (and store) as the plan's rate limit.
 */
import { retryAfterMs, type SlidingWindowStore } from './sliding-window';

/** Requests one account may make with its sessions; `take` answers whole seconds to wait, or 0. */
export interface SessionBudget {
  take(accountId: string): Promise<number>;
}

export class SessionRequestBudget implements SessionBudget {
  constructor(private readonly options: { store: SlidingWindowStore; limit: number; windowMs?: number }) {}

  /** Counts one request of `accountId`; 0 when it fits, else whole seconds (≥ 1) until one more does. */
  async take(accountId: string): Promise<number> {
    const { limit, store } = this.options;
    const windowMs = this.options.windowMs ?? 60_000;
    const { allowed, counts, elapsedMs } = await store.take(`session-account:${accountId}`, limit, windowMs);
    return allowed ? 0 : Math.max(1, Math.ceil(retryAfterMs(counts, elapsedMs, windowMs, limit) / 1000));
  }
}
