import type { RateLimitStore, WindowHit } from '../domain/rate-limiter';

export interface MemoryRateLimitStoreOptions {
  /** keys tracked at once before idle windows are dropped */
  maxKeys?: number;
  now?: () => number;
}

interface Window {
  startedAt: number;
  windowMs: number;
  count: number;
}

/**
 * Windows counted in this process: exact for one replica; N replicas without
 * a shared store allow up to N × the budget.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, Window>();
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.maxKeys = options.maxKeys ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  hit(id: string, windowMs: number): Promise<WindowHit> {
    return Promise.resolve(this.hitNow(id, windowMs));
  }

  /** The synchronous count, also used as the fallback while Redis is away. */
  hitNow(id: string, windowMs: number): WindowHit {
    const now = this.now();
    let window = this.windows.get(id);
    if (!window || now - window.startedAt >= window.windowMs) {
      window = { startedAt: now, windowMs, count: 0 };
      this.windows.set(id, window);
      if (this.windows.size > this.maxKeys) this.prune(now);
    }
    window.count += 1;
    return { count: window.count, resetMs: window.startedAt + window.windowMs - now };
  }

  private prune(now: number): void {
    for (const [id, w] of this.windows) if (now - w.startedAt >= w.windowMs) this.windows.delete(id);
    // Still full of live windows: drop the oldest rather than grow without bound.
    for (const id of this.windows.keys()) {
      if (this.windows.size <= this.maxKeys) break;
      this.windows.delete(id);
    }
  }
}
