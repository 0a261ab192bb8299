import { AnswerCache, type BufferedAnswer } from '../../src/http/proxy/answer-cache';

const json = (text: string, status = 200): BufferedAnswer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: Buffer.from(text),
});

/** A promise the test opens when it likes: loads wait on it, so several requests overlap. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('AnswerCache', () => {
  let now = 0;
  const sut = () => new AnswerCache({ ttlMs: 50, maxEntries: 10, maxBytes: 1_000, now: () => now });
  beforeEach(() => {
    now = 0;
  });

  it('reuses a 200 JSON answer until its time to live has passed, with one ETag computed when stored', async () => {
    const cache = sut();
    let loads = 0;
    const load = async () => json(`{"n":${++loads}}`);
    const first = await cache.serve('/api/v1/skills?q=a', load);
    now = 49;
    const second = await cache.serve('/api/v1/skills?q=a', load);
    expect(first).toMatchObject({ kind: 'cached', hit: false });
    expect(second).toMatchObject({ kind: 'cached', hit: true });
    expect(second.answer.body.toString()).toBe('{"n":1}');
    expect(second.kind === 'cached' && second.answer.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    now = 50;
    const third = await cache.serve('/api/v1/skills?q=a', load);
    expect(third.answer.body.toString()).toBe('{"n":2}');
    expect(cache.stats()).toEqual({ hits: 1, misses: 2 });
  });

  it('keeps one answer per key', async () => {
    const cache = sut();
    await cache.serve('a', async () => json('"a"'));
    const b = await cache.serve('b', async () => json('"b"'));
    expect(b.answer.body.toString()).toBe('"b"');
  });

  it('sends concurrent misses of one key upstream once', async () => {
    const cache = sut();
    let loads = 0;
    const { opened, open } = gate();
    const load = async () => {
      loads++;
      await opened;
      return json('{"shared":true}');
    };
    const waiting = Array.from({ length: 20 }, () => cache.serve('k', load));
    open();
    const served = await Promise.all(waiting);
    expect(loads).toBe(1);
    expect(new Set(served.map((s) => s.answer.body.toString()))).toEqual(new Set(['{"shared":true}']));
  });

  it('never stores an error or a non-JSON answer, and lets each waiting request ask for its own', async () => {
    const cache = sut();
    let loads = 0;
    const { opened, open } = gate();
    const load = async () => {
      loads++;
      await opened;
      return json(`{"error":"in the language of request ${loads}"}`, 400);
    };
    const waiting = [cache.serve('k', load), cache.serve('k', load)];
    open();
    const served = await Promise.all(waiting);
    expect(served.map((s) => s.kind)).toEqual(['passed', 'passed']);
    expect(loads).toBe(2);
    const text = await cache.serve('t', async () => ({
      status: 200,
      headers: { 'content-type': 'text/plain' },
      body: Buffer.from('x'),
    }));
    expect(text.kind).toBe('passed');
  });

  it('fails every request that shared a failed load, each after asking on its own, and the next request asks again', async () => {
    const cache = sut();
    let loads = 0;
    const { opened, open } = gate();
    const failing = async () => {
      const n = ++loads;
      await opened;
      throw new Error(`upstream down (request ${n})`);
    };
    const first = cache.serve('k', failing);
    const waiting = [cache.serve('k', failing), cache.serve('k', failing)];
    // three requests, one load so far: the other two wait for it
    expect(loads).toBe(1);
    open();
    const outcomes = await Promise.allSettled([first, ...waiting]);
    expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : o.status))).toEqual([
      'Error: upstream down (request 1)',
      'Error: upstream down (request 2)',
      'Error: upstream down (request 3)',
    ]);
    const ok = await cache.serve('k', async () => json('{}'));
    expect(ok).toMatchObject({ kind: 'cached', hit: false });
    expect(loads).toBe(3);
  });

  it('is off with a zero time to live or no entries', () => {
    expect(new AnswerCache({ ttlMs: 0, maxEntries: 10, maxBytes: 1_000 }).enabled).toBe(false);
    expect(new AnswerCache({ ttlMs: 50, maxEntries: 0, maxBytes: 1_000 }).enabled).toBe(false);
    expect(sut().enabled).toBe(true);
  });
});
