import { waitSeconds, type ThrottleCounter, type ThrottleStore } from '../domain/limits/throttle-store';

interface Window {
  startedAt: number;
  count: number;
  /** when the last attempt of this window started */
  lastAt: number;
}

/**
 * Throttle counters in this process: exact for one replica, N replicas allow
 * N × the limits. Also what the Redis store counts in while Redis is away.
 * Synchronous inside, so `begin` is atomic on Node's one thread.
 */
export class MemoryThrottleStore implements ThrottleStore {
  private readonly windows = new Map<string, Window>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(options: { now?: () => number; maxEntries?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 100_000;
  }

  begin(counters: readonly ThrottleCounter[], windowMs: number): Promise<number> {
    return Promise.resolve(this.beginNow(counters, windowMs));
  }

  beginNow(counters: readonly ThrottleCounter[], windowMs: number): number {
    const now = this.now();
    const seconds = Math.max(0, ...counters.map((c) => waitSeconds(c, this.live(c.id, windowMs), now, windowMs)));
    if (seconds > 0) return seconds;
    for (const { id } of counters) {
      let window = this.live(id, windowMs);
      if (!window) {
        window = { startedAt: now, count: 0, lastAt: 0 };
        this.windows.set(id, window);
        if (this.windows.size > this.maxEntries) this.prune(windowMs);
      }
      window.count += 1;
      window.lastAt = now;
    }
    return 0;
  }

  forgive(reset: string, giveBack: string, windowMs: number): Promise<void> {
    this.forgiveNow(reset, giveBack, windowMs);
    return Promise.resolve();
  }

  forgiveNow(reset: string, giveBack: string, windowMs: number): void {
    this.windows.delete(reset);
    const window = this.live(giveBack, windowMs);
    if (window) window.count = Math.max(0, window.count - 1);
  }

  private live(id: string, windowMs: number): Window | undefined {
    const window = this.windows.get(id);
    if (window && this.now() - window.startedAt >= windowMs) {
      this.windows.delete(id);
      return undefined;
    }
    return window;
  }

  private prune(windowMs: number): void {
    for (const id of this.windows.keys()) {
      this.live(id, windowMs);
      if (this.windows.size <= this.maxEntries) return;
    }
    // Still full of live windows: drop the oldest rather than grow without bound.
    for (const id of this.windows.keys()) {
      if (this.windows.size <= this.maxEntries) return;
      this.windows.delete(id);
    }
  }
}
