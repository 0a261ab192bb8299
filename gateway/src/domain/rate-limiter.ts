/**
 * Per-key request budget: a fixed window per key that starts with the key's
 * first request. Counted in memory per replica (N replicas allow up to N ×
 * the budget); the headers tell a client where it stands either way.
 */

export interface RateLimiterOptions {
  /** requests per window; 0 turns limiting off */
  limit: number;
  windowMs?: number;
  /** keys tracked at once before idle windows are dropped */
  maxKeys?: number;
  now?: () => number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** whole seconds until the window resets (≥ 1) */
  resetSeconds: number;
}

interface Window {
  startedAt: number;
  count: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly windowMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(private readonly options: RateLimiterOptions) {
    this.windowMs = options.windowMs ?? 60_000;
    this.maxKeys = options.maxKeys ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.options.limit > 0;
  }

  /** Counts one request of `id` and says whether it fits the budget. */
  take(id: string): RateDecision {
    const now = this.now();
    let window = this.windows.get(id);
    if (!window || now - window.startedAt >= this.windowMs) {
      window = { startedAt: now, count: 0 };
      this.windows.set(id, window);
      if (this.windows.size > this.maxKeys) this.prune(now);
    }
    const allowed = window.count < this.options.limit;
    if (allowed) window.count += 1;
    return {
      allowed,
      limit: this.options.limit,
      remaining: this.options.limit - window.count,
      resetSeconds: Math.max(1, Math.ceil((window.startedAt + this.windowMs - now) / 1000)),
    };
  }

  private prune(now: number): void {
    for (const [id, w] of this.windows) if (now - w.startedAt >= this.windowMs) this.windows.delete(id);
    // Still full of live windows: drop the oldest rather than grow without bound.
    for (const id of this.windows.keys()) {
      if (this.windows.size <= this.maxKeys) break;
      this.windows.delete(id);
    }
  }
}
