/**
 * Remembers the principal ids (jti) already used, so a signed header is
 * accepted once. The memory guard covers one process; a shared guard
 * (redis/redis-replay-guard.ts) extends "once" to every replica for the
 * methods that change something (docs/security.md, "Principal header").
 */
export interface ReplayGuard {
  /**
   * True the first time `jti` is seen, false for a replay. `expiresAt` (ms)
   * is when the header stops being accepted anyway, so the id can be
   * forgotten then; `method` lets a guard treat reads and writes apart.
   */
  firstUse(jti: string, expiresAt: number, method: string): Promise<boolean>;
  close?(): Promise<void>;
}

/** Reads: a replay of one changes nothing, so a shared guard may leave them to the process's own memory. */
export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/** One process's memory: entries leave once expired, so it holds at most rate × lifetime ids. */
export class MemoryReplayGuard implements ReplayGuard {
  private readonly seen = new Map<string, number>();
  private readonly now: () => number;
  private lastPrune = 0;

  constructor(options: { now?: () => number } = {}) {
    this.now = options.now ?? Date.now;
  }

  /** The synchronous check, for guards that build on this one. */
  take(jti: string, expiresAt: number): boolean {
    this.prune(this.now());
    if (this.seen.has(jti)) return false;
    this.seen.set(jti, expiresAt);
    return true;
  }

  firstUse(jti: string, expiresAt: number): Promise<boolean> {
    return Promise.resolve(this.take(jti, expiresAt));
  }

  private prune(now: number): void {
    if (now - this.lastPrune < 1_000) return;
    this.lastPrune = now;
    for (const [jti, exp] of this.seen) if (exp < now) this.seen.delete(jti);
  }
}
