/**
 * A bounded least-recently-used map: at most `maxEntries` values and about
 * `maxBytes` of them (the caller says how big each value is), each dropped
 * `ttlMs` after it was stored whatever happens. A Map keeps insertion order,
 * so re-inserting on a hit makes the first key the least recently used.
 */
export interface LruOptions {
  maxEntries: number;
  maxBytes: number;
  ttlMs: number;
  now?: () => number;
}

interface Entry<V> {
  value: V;
  bytes: number;
  expiresAt: number;
}

export class LruCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0;
  private readonly now: () => number;

  constructor(private readonly options: LruOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) {
      this.bytes -= entry.bytes;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.value;
  }

  /** A value bigger than the whole byte budget is not kept (it would evict everything for one entry). */
  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.options.maxBytes || this.options.maxEntries <= 0) return;
    this.entries.set(key, { value, bytes, expiresAt: this.now() + this.options.ttlMs });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.options.maxEntries && this.bytes <= this.options.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
