/**
 * The sliding-window counter, as pure functions. Time is cut into fixed
 * windows; a request is weighed against the current window's count plus the
 * previous window's count scaled by how much of it still overlaps the last
 * `windowMs`. Unlike a fixed window, a client cannot spend its budget at the
 * end of one window and again at the start of the next: after a burst, the
 * budget comes back gradually over the following window. Two numbers per
 * client, whether they live in this process or in Redis (whose script
 * applies the same rule, store/redis-rate-limit.store.ts).
 */

/** What a store keeps per client: the counts of the current fixed window and the one before. */
export interface WindowCounts {
  /** index of the fixed window `current` counts (floor(time / windowMs)) */
  index: number;
  current: number;
  previous: number;
}

/** The counts as seen at `index`: a window that ended rolls into `previous`, older ones are forgotten. */
export function rotate(stored: WindowCounts | undefined, index: number): WindowCounts {
  if (!stored || stored.index < index - 1) return { index, current: 0, previous: 0 };
  if (stored.index === index - 1) return { index, current: 0, previous: stored.current };
  return stored;
}

/** Requests counted over the last `windowMs` at `elapsedMs` into the current fixed window. */
export function weightedCount(counts: WindowCounts, elapsedMs: number, windowMs: number): number {
  return (counts.previous * (windowMs - elapsedMs)) / windowMs + counts.current;
}

/** Whether one more request stays within `limit`. */
export function fits(counts: WindowCounts, elapsedMs: number, windowMs: number, limit: number): boolean {
  return weightedCount(counts, elapsedMs, windowMs) + 1 <= limit;
}

/** How long until one more request fits, when none is made meanwhile. */
export function retryAfterMs(counts: WindowCounts, elapsedMs: number, windowMs: number, limit: number): number {
  if (fits(counts, elapsedMs, windowMs, limit)) return 0;
  if (counts.current + 1 <= limit && counts.previous > 0) {
    // later in this window, once enough of the previous one has slid out
    return Math.ceil(windowMs * (1 - (limit - counts.current - 1) / counts.previous) - elapsedMs);
  }
  // in the next window, where this window's count slides out in turn
  const intoNext = counts.current > limit - 1 ? windowMs * (1 - (limit - 1) / counts.current) : 0;
  return Math.ceil(windowMs - elapsedMs + intoNext);
}

/** How long until nothing is counted any more (the whole budget is back), when no request is made. */
export function fullResetMs(counts: WindowCounts, elapsedMs: number, windowMs: number): number {
  if (counts.current > 0) return windowMs - elapsedMs + windowMs;
  if (counts.previous > 0) return windowMs - elapsedMs;
  return 0;
}

/** A store's answer to one request: whether it was counted, and the counts after it. */
export interface TakeResult {
  allowed: boolean;
  counts: WindowCounts;
  /** how far into the current fixed window the request came */
  elapsedMs: number;
}

/**
 * Where windows are counted: this process (MemoryRateLimitStore) or Redis,
 * shared by the replicas (RedisRateLimitStore).
 */
export interface SlidingWindowStore {
  /** Counts one request of `id` when it fits within `limit` over `windowMs`; a refused request is not counted. */
  take(id: string, limit: number, windowMs: number): Promise<TakeResult>;
  /** The counts of `id` now, without counting anything. */
  peek(id: string, windowMs: number): Promise<Omit<TakeResult, 'allowed'>>;
  close?(): Promise<void>;
}
