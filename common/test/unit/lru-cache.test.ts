import { LruCache } from '../../src/cache/lru-cache';

describe('LruCache', () => {
  it('keeps its total size under the byte budget by dropping the least recently used', () => {
    const cache = new LruCache<string>({ maxEntries: 100, maxBytes: 10, ttlMs: 1_000 });
    cache.set('a', 'a', 4);
    cache.set('b', 'b', 4);
    cache.get('a');
    cache.set('c', 'c', 4);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['a', undefined, 'c']);
    expect(cache.totalBytes).toBe(8);
    cache.set('huge', 'x', 11);
    expect(cache.get('huge')).toBeUndefined();
  });

  it('drops an entry once its time to live has passed', () => {
    let now = 0;
    const cache = new LruCache<string>({ maxEntries: 10, maxBytes: 100, ttlMs: 1_000, now: () => now });
    cache.set('a', 'a', 1);
    now = 999;
    expect(cache.get('a')).toBe('a');
    now = 1_000;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.totalBytes).toBe(0);
  });
});
