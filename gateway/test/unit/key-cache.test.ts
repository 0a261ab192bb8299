import { KeyCache } from '../../src/domain/keys/key-cache';

function clock(start = 1_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('KeyCache', () => {
  it('answers within the TTL and forgets at the TTL', () => {
    const c = clock();
    const sut = new KeyCache<string>({ ttlMs: 1_000, now: c.now });
    sut.set('a', 'A');
    c.advance(999);
    expect(sut.get('a')).toBe('A');
    c.advance(1);
    expect(sut.get('a')).toBeUndefined();
  });

  it('keeps null results apart from misses', () => {
    const sut = new KeyCache<string | null>({ ttlMs: 1_000 });
    sut.set('unknown', null);
    expect(sut.get('unknown')).toBeNull();
    expect(sut.get('never-set')).toBeUndefined();
  });

  it('evicts the least recently used entry past its size', () => {
    const sut = new KeyCache<number>({ ttlMs: 10_000, maxEntries: 2 });
    sut.set('a', 1);
    sut.set('b', 2);
    expect(sut.get('a')).toBe(1); // a is now the most recent
    sut.set('c', 3);
    expect(sut.size).toBe(2);
    expect(sut.get('b')).toBeUndefined();
    expect(sut.get('a')).toBe(1);
    expect(sut.get('c')).toBe(3);
  });

  it('drops the matching entries on invalidate and keeps the others', () => {
    const sut = new KeyCache<{ account: string } | null>({ ttlMs: 10_000 });
    sut.set('k1', { account: 'x' });
    sut.set('k2', { account: 'x' });
    sut.set('k3', { account: 'y' });
    sut.set('k4', null);
    sut.invalidate((v) => v?.account === 'x');
    expect(sut.get('k1')).toBeUndefined();
    expect(sut.get('k2')).toBeUndefined();
    expect(sut.get('k3')).toEqual({ account: 'y' });
    expect(sut.get('k4')).toBeNull();
  });

  it('caches nothing with a TTL of 0', () => {
    const sut = new KeyCache<number>({ ttlMs: 0 });
    sut.set('a', 1);
    expect(sut.get('a')).toBeUndefined();
  });
});
