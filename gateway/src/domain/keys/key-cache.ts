/**
 * A short-lived, size-bounded cache of resolved keys (LRU over a Map, whose
 * iteration order is insertion order). The TTL bounds how long another
 * replica's revoke or plan change can go unseen; local changes call
 * `invalidate` so they apply on the very next request. The authenticator
 * keeps two: known keys, and a smaller one of unknown keys, so a flood of
 * bad keys does not reach the database and cannot evict a known key.
 */

export interface KeyCacheOptions {
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
}

export class KeyCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: KeyCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached value, or undefined when absent or expired. */
  get(id: string): V | undefined {
    return this.fresh(id)?.value;
  }

  /** The cached value and how long it stays fresh (ms), or undefined when absent or expired. */
  fresh(id: string): { value: V; remainingMs: number } | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const remainingMs = entry.expiresAt - this.now();
    if (remainingMs <= 0) {
      this.entries.delete(id);
      return undefined;
    }
    // Re-insert to mark it most recently used.
    this.entries.delete(id);
    this.entries.set(id, entry);
    return { value: entry.value, remainingMs };
  }

  set(id: string, value: V): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(id);
    this.entries.set(id, { value, expiresAt: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  /** Drops every entry whose value matches; O(n), run only on admin changes. */
  invalidate(matches: (value: V) => boolean): void {
    for (const [id, entry] of this.entries) if (matches(entry.value)) this.entries.delete(id);
  }

  clear(): void {
    this.entries.clear();
  }
}
