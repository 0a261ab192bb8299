/**
 * Per-account request budget, set by the account's plan (docs/api.md: pro
 * and team have API access, free is refused before this runs). Counted per
 * account, not per key, so issuing more keys gives no more budget; over a
 * sliding window (sliding-window.ts), so the budget cannot be spent twice
 * around a window's edge. Where windows are counted is a SlidingWindowStore:
 * in memory for one replica, Redis when replicas share it.
 */
import type { Plan } from '@skills/common';
import { fullResetMs, retryAfterMs, weightedCount, type SlidingWindowStore } from './sliding-window';

/** Requests per window by plan; 0 (or absent) turns limiting off for that plan. */
export type PlanLimits = Partial<Record<Plan, number>>;

export interface RateLimiterOptions {
  limits: PlanLimits;
  store: SlidingWindowStore;
  windowMs?: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** requests left now (whole) */
  remaining: number;
  /** whole seconds (≥ 1) until the whole budget is back if no request is made */
  resetSeconds: number;
  /** when refused: whole seconds (≥ 1) until one more request fits */
  retryAfterSeconds: number;
}

const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

export class RateLimiter {
  readonly windowMs: number;

  constructor(private readonly options: RateLimiterOptions) {
    this.windowMs = options.windowMs ?? 60_000;
  }

  limitFor(plan: Plan): number {
    return this.options.limits[plan] ?? 0;
  }

  /** Counts one request of `accountId` on `plan`; undefined when the plan is not limited. */
  async take(accountId: string, plan: Plan): Promise<RateDecision | undefined> {
    const limit = this.limitFor(plan);
    if (limit <= 0) return undefined;
    const { allowed, counts, elapsedMs } = await this.options.store.take(`account:${accountId}`, limit, this.windowMs);
    const used = weightedCount(counts, elapsedMs, this.windowMs);
    return {
      allowed,
      limit,
      remaining: Math.max(0, Math.floor(limit - used)),
      resetSeconds: seconds(fullResetMs(counts, elapsedMs, this.windowMs)),
      retryAfterSeconds: seconds(retryAfterMs(counts, elapsedMs, this.windowMs, limit)),
    };
  }

  close(): Promise<void> {
    return this.options.store.close?.() ?? Promise.resolve();
  }
}
