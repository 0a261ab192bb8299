import {
  fits,
  rotate,
  type SlidingWindowStore,
  type TakeResult,
  type WindowCounts,
} from '../domain/limits/sliding-window';

export interface MemoryRateLimitStoreOptions {
  /** clients tracked at once before idle ones are dropped */
  maxKeys?: number;
  now?: () => number;
}

/**
 * Sliding windows counted in this process: exact for one replica; N
 * replicas without a shared store allow up to N × the budget. Also the
 * fallback of the Redis store while Redis does not answer.
 */
export class MemoryRateLimitStore implements SlidingWindowStore {
  private readonly windows = new Map<string, WindowCounts & { windowMs: number }>();
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.maxKeys = options.maxKeys ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  take(id: string, limit: number, windowMs: number): Promise<TakeResult> {
    return Promise.resolve(this.takeNow(id, limit, windowMs));
  }

  peek(id: string, windowMs: number): Promise<Omit<TakeResult, 'allowed'>> {
    const { counts, elapsedMs } = this.current(id, windowMs);
    return Promise.resolve({ counts, elapsedMs });
  }

  /** The synchronous count, also used as the fallback while Redis is away. */
  takeNow(id: string, limit: number, windowMs: number): TakeResult {
    const { counts, elapsedMs } = this.current(id, windowMs);
    const allowed = fits(counts, elapsedMs, windowMs, limit);
    const after = allowed ? { ...counts, current: counts.current + 1 } : counts;
    // Re-inserted: the map's order is then least recently used first, what prune drops.
    this.windows.delete(id);
    this.windows.set(id, { ...after, windowMs });
    if (this.windows.size > this.maxKeys) this.prune();
    return { allowed, counts: after, elapsedMs };
  }

  peekNow(id: string, windowMs: number): Omit<TakeResult, 'allowed'> {
    return this.current(id, windowMs);
  }

  private current(id: string, windowMs: number): { counts: WindowCounts; elapsedMs: number } {
    const now = this.now();
    const index = Math.floor(now / windowMs);
    return { counts: rotate(this.windows.get(id), index), elapsedMs: now - index * windowMs };
  }

  private prune(): void {
    const index = (windowMs: number) => Math.floor(this.now() / windowMs);
    for (const [id, w] of this.windows) if (w.index < index(w.windowMs) - 1) this.windows.delete(id);
    // Still full of live windows: drop the least recently used rather than grow without bound.
    for (const id of this.windows.keys()) {
      if (this.windows.size <= this.maxKeys) break;
      this.windows.delete(id);
    }
  }
}
