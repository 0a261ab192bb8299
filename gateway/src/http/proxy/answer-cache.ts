/**
 * A micro-cache of public search answers at the gateway. A search answer is
 * the same for every caller (the catalog is public; who may ask is decided
 * before the cache), so a hot query is answered here without the hop to
 * catalog-service, whose own cache still serves everything this one misses.
 *
 * The price is staleness, bounded by `ttlMs` (default 50 ms; at most 1 s):
 * an answer is reused only that long after catalog-service produced it. The
 * answer's ETag is computed once, when it is stored. Concurrent misses of one
 * URL share a single upstream request, so an expiry under load costs one hop,
 * not one per waiting connection.
 */
import { LruCache } from '@skills/common';
import { strongEtag } from './conditional';

/** What the cache keeps of a 200 JSON answer. */
export interface CachedAnswer {
  body: Buffer;
  etag: string;
  contentType: string;
}

/** An upstream answer, whole. */
export interface BufferedAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface AnswerCacheOptions {
  /** how long an answer is reused after it arrived; 0 turns the cache off */
  ttlMs: number;
  /** answers kept (least recently used dropped first) */
  maxEntries: number;
  /** approximate bytes of bodies kept */
  maxBytes: number;
  now?: () => number;
}

export interface AnswerCacheStats {
  hits: number;
  misses: number;
}

/** The answer a request gets: stored (possibly just now) or, when it cannot be stored, the upstream one as is. */
export type Served =
  { kind: 'cached'; answer: CachedAnswer; hit: boolean } | { kind: 'passed'; answer: BufferedAnswer };

function cacheable(answer: BufferedAnswer): CachedAnswer | undefined {
  const type = answer.headers['content-type'];
  if (answer.status !== 200 || typeof type !== 'string' || !type.startsWith('application/json')) return undefined;
  return { body: answer.body, etag: strongEtag(answer.body), contentType: type };
}

export class AnswerCache {
  private readonly entries: LruCache<CachedAnswer>;
  private readonly inFlight = new Map<string, Promise<BufferedAnswer>>();
  private hits = 0;
  private misses = 0;

  constructor(private readonly options: AnswerCacheOptions) {
    this.entries = new LruCache({
      maxEntries: options.maxEntries,
      maxBytes: options.maxBytes,
      ttlMs: options.ttlMs,
      now: options.now,
    });
  }

  get enabled(): boolean {
    return this.options.ttlMs > 0 && this.options.maxEntries > 0;
  }

  /** True when `key` would be answered without a request of its own: stored, or already being fetched. */
  has(key: string): boolean {
    return this.inFlight.has(key) || this.entries.get(key) !== undefined;
  }

  stats(): AnswerCacheStats {
    return { hits: this.hits, misses: this.misses };
  }

  /**
   * The answer for `key`: from the cache, else from `load`. Concurrent
   * misses of one key wait for the first one's request; when its answer
   * cannot be stored (an error, say, worded in the first caller's language),
   * each of them asks on its own.
   */
  async serve(key: string, load: () => Promise<BufferedAnswer>): Promise<Served> {
    const stored = this.entries.get(key);
    if (stored) {
      this.hits++;
      return { kind: 'cached', answer: stored, hit: true };
    }
    this.misses++;
    const pending = this.inFlight.get(key);
    if (pending) {
      await pending.catch(() => undefined);
      const shared = this.entries.get(key);
      return shared ? { kind: 'cached', answer: shared, hit: false } : { kind: 'passed', answer: await load() };
    }
    const loading = load();
    this.inFlight.set(key, loading);
    try {
      const answer = await loading;
      const entry = cacheable(answer);
      if (!entry) return { kind: 'passed', answer };
      this.entries.set(key, entry, entry.body.length);
      return { kind: 'cached', answer: entry, hit: false };
    } finally {
      this.inFlight.delete(key);
    }
  }
}
