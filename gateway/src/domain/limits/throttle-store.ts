/**
 * Where the account throttles (sign-in-throttle.ts) keep their
 * counters: this replica's memory, or Redis shared by every replica.
 */

/** One counter a throttled attempt is checked against and, when it may go on, counted in. */
export interface ThrottleCounter {
  id: string;
  /** attempts per window; past it, wait until the window ends (0: no hard limit) */
  limit: number;
  /** attempts in a row before each further one waits 1, 2, 4 s … after the last (0: no delay) */
  freeAttempts: number;
  /** the longest of those waits; the window when absent */
  maxDelayMs?: number;
}

/**
 * Counters that live one fixed window from their first attempt. `begin`
 * must be atomic: either every counter lets the attempt go and all are
 * counted, or none is, and the seconds to wait come back; otherwise a
 * parallel burst across replicas slips past the limits while the hashes run.
 */
export interface ThrottleStore {
  /** 0 when the attempt was counted in every counter; else whole seconds (≥ 1) to wait. */
  begin(counters: readonly ThrottleCounter[], windowMs: number): Promise<number>;
  /** A successful attempt: `reset` starts afresh, `giveBack` gets one attempt back. */
  forgive(reset: string, giveBack: string, windowMs: number): Promise<void>;
  close?(): Promise<void>;
}

/** Seconds (≥ 1) to wait, or 0: the one rule both stores apply, given a counter's state. */
export function waitSeconds(
  counter: ThrottleCounter,
  state: { startedAt: number; count: number; lastAt: number } | undefined,
  now: number,
  windowMs: number,
): number {
  if (!state) return 0;
  let waitMs = 0;
  if (counter.limit > 0 && state.count >= counter.limit) waitMs = Math.max(1, state.startedAt + windowMs - now);
  if (counter.freeAttempts > 0 && state.count >= counter.freeAttempts) {
    const delayMs = Math.min(1000 * 2 ** (state.count - counter.freeAttempts), counter.maxDelayMs ?? windowMs);
    waitMs = Math.max(waitMs, state.lastAt + delayMs - now);
  }
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
}
