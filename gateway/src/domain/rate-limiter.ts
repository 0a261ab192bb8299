/**
 * Per-key request budget, set by the key's plan (DESIGN.md §3: pro and team
 * have API access, free is refused before this runs). A fixed window per key
 * starts with the key's first request; where the windows are counted is a
 * `RateLimitStore`: in memory for one replica, Redis when replicas share it.
 */
import type { Plan } from '@skills/common';

/** One counted request: how many the window holds now (this one included) and when it ends. */
export interface WindowHit {
  count: number;
  /** milliseconds until the window resets */
  resetMs: number;
}

export interface RateLimitStore {
  /** Counts one request of `id` in its current window (opened with `windowMs` when absent). */
  hit(id: string, windowMs: number): Promise<WindowHit>;
  close?(): Promise<void>;
}

/** Requests per window by plan; 0 (or absent) turns limiting off for that plan. */
export type PlanLimits = Partial<Record<Plan, number>>;

export interface RateLimiterOptions {
  limits: PlanLimits;
  store: RateLimitStore;
  windowMs?: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** whole seconds until the window resets (≥ 1) */
  resetSeconds: number;
}

export class RateLimiter {
  readonly windowMs: number;

  constructor(private readonly options: RateLimiterOptions) {
    this.windowMs = options.windowMs ?? 60_000;
  }

  limitFor(plan: Plan): number {
    return this.options.limits[plan] ?? 0;
  }

  /** Counts one request of key `id` on `plan`; undefined when the plan is not limited. */
  async take(id: string, plan: Plan): Promise<RateDecision | undefined> {
    const limit = this.limitFor(plan);
    if (limit <= 0) return undefined;
    const { count, resetMs } = await this.options.store.hit(id, this.windowMs);
    return {
      allowed: count <= limit,
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    };
  }

  close(): Promise<void> {
    return this.options.store.close?.() ?? Promise.resolve();
  }
}
