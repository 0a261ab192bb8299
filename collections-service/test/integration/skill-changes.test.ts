// @store-specific the change feed's reads in commit order, late commits included
import { Client } from 'pg';
import request from 'supertest';
import { PRINCIPAL_HEADER } from '@skills/common';
import { createCollectionsApp } from '@skills/collections-service';
import {
  ADMIN,
  AUDIENCE,
  KEYS,
  START_TIMEOUT_MS,
  account,
  createPrivateSkill,
  putSkill,
  startHarness,
  type Harness,
} from '../support/harness';
import { silentLogger } from '@skills/common/testing';

interface Change {
  slug: string;
  change: 'upsert' | 'delete';
  item?: { slug: string; name: string; category: string };
  updatedAt: string;
}
interface ChangesAnswer {
  changes: Change[];
  nextCursor: string;
  hasMore: boolean;
}

describe('GET /api/v1/skills/changes', () => {
  let h: Harness;
  const reader = account();

  beforeAll(async () => {
    h = await startHarness();
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  async function changes(query = ''): Promise<ChangesAnswer> {
    const res = await h.call(reader, 'get', `/api/v1/skills/changes${query}`);
    expect(res.status).toBe(200);
    return res.body.data as ChangesAnswer;
  }

  /**
   * The answer to `query` once it shows `slug`, the last item the test wrote. The feed waits for every
   * transaction older than a write, in the whole server: on a shared test server another suite's open
   * transaction can hold a write back for a moment (never reorder it).
   */
  async function changesShowing(slug: string, query = ''): Promise<ChangesAnswer> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const page = await changes(query);
      if (page.changes.some((c) => c.slug === slug) || Date.now() > deadline) return page;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Follows the feed from `since` to the end, applying it to `mirror`; returns the last cursor. */
  async function follow(mirror: Map<string, string>, since?: string, limit = 2): Promise<string> {
    let cursor = since;
    for (;;) {
      const page = await changes(`?limit=${limit}${cursor ? `&since=${cursor}` : ''}`);
      expect(page.changes.length).toBeLessThanOrEqual(limit);
      for (const c of page.changes) {
        if (c.change === 'upsert') mirror.set(c.slug, c.item?.name ?? '');
        else mirror.delete(c.slug);
      }
      cursor = page.nextCursor;
      if (!page.hasMore) return cursor;
    }
  }

  it('follows public writes in commit order, and a mirror that follows it holds exactly the active catalog', async () => {
    const owner = account();
    for (const slug of ['feed-a', 'feed-b', 'feed-c']) await putSkill(h, slug);
    await createPrivateSkill(h, owner.accountId, 'never in the feed');
    await changesShowing('feed-c', '?limit=500');
    const first = await changes('?limit=2');
    expect(first.changes.map((c) => [c.slug, c.change])).toEqual([
      ['feed-a', 'upsert'],
      ['feed-b', 'upsert'],
    ]);
    expect(first.changes[0]?.item).toMatchObject({ slug: 'feed-a', name: 'Skill feed-a', category: 'testing' });
    expect(first.hasMore).toBe(true);

    const mirror = new Map<string, string>();
    const cursor = await follow(mirror);
    expect([...mirror.keys()]).toEqual(['feed-a', 'feed-b', 'feed-c']);

    expect((await h.call(ADMIN, 'delete', '/admin/v1/skills/feed-b')).status).toBe(200);
    await putSkill(h, 'feed-a', { name: 'Renamed a' });
    await putSkill(h, 'feed-c', { status: 'archived' });
    const next = await changesShowing('feed-c', `?since=${cursor}`);
    expect(next.changes.map((c) => [c.slug, c.change])).toEqual([
      ['feed-b', 'delete'],
      ['feed-a', 'upsert'],
      ['feed-c', 'delete'],
    ]);
    expect(next.changes[0]).not.toHaveProperty('item');
    await follow(mirror, cursor);
    expect(Object.fromEntries(mirror)).toEqual({ 'feed-a': 'Renamed a' });
    // from the start, a new mirror gets the same: each item once, in its latest state
    const fresh = new Map<string, string>();
    await follow(fresh, undefined, 500);
    expect(Object.fromEntries(fresh)).toEqual({ 'feed-a': 'Renamed a' });
  });

  it('never shows an item that was never active, and shows a delete once an active one becomes a draft', async () => {
    const { nextCursor } = await changes('?limit=500');
    await putSkill(h, 'feed-secret-draft', { status: 'draft' });
    await putSkill(h, 'feed-secret-draft', { status: 'archived', name: 'Still unseen' });
    await putSkill(h, 'feed-shown-once', { status: 'active' });
    await putSkill(h, 'feed-marker');
    const page = await changesShowing('feed-marker', `?since=${nextCursor}`);
    expect(page.changes.map((c) => [c.slug, c.change])).toEqual([
      ['feed-shown-once', 'upsert'],
      ['feed-marker', 'upsert'],
    ]);
    await putSkill(h, 'feed-shown-once', { status: 'draft' });
    const after = await changesShowing('feed-shown-once', `?since=${page.nextCursor}`);
    expect(after.changes.map((c) => [c.slug, c.change])).toEqual([['feed-shown-once', 'delete']]);
    // the draft that became active is a change from then on
    await putSkill(h, 'feed-secret-draft', { status: 'active', name: 'Published' });
    const published = await changesShowing('feed-secret-draft', `?since=${after.nextCursor}`);
    expect(published.changes.map((c) => [c.slug, c.change, c.item?.name])).toEqual([
      ['feed-secret-draft', 'upsert', 'Published'],
    ]);
  });

  it('keeps a cursor valid for another process, and answers the same cursor with nothing new when nothing changed', async () => {
    const { nextCursor } = await changes('?limit=500');
    const other = createCollectionsApp({
      sequelize: h.sequelize,
      verifier: KEYS.verifier(AUDIENCE),
      logger: silentLogger('changes-test'),
    });
    const url = `/api/v1/skills/changes?since=${nextCursor}`;
    const res = await request(other)
      .get(url)
      .set(PRINCIPAL_HEADER, KEYS.signer().sign(reader, AUDIENCE, 'GET', url));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ changes: [], nextCursor, hasMore: false });
    await putSkill(h, 'feed-later');
    const later = await changesShowing('feed-later', `?since=${nextCursor}`);
    expect(later.changes.map((c) => c.slug)).toEqual(['feed-later']);
  });

  it('refuses a cursor it did not give out, a limit out of bounds and unknown parameters, naming them', async () => {
    const cases: Array<[string, RegExp]> = [
      ['?since=not-a-cursor', /"since"/],
      [`?since=${Buffer.from('c1.12.not-a-uuid').toString('base64url')}`, /"since"/],
      // past xid8's range (2^64 - 1): Postgres would refuse the cast, a 500 before
      [
        `?since=${Buffer.from('c1.18446744073709551616.00000000-0000-0000-0000-000000000000').toString('base64url')}`,
        /"since"/,
      ],
      [
        `?since=${Buffer.from('c1.99999999999999999999.00000000-0000-0000-0000-000000000000').toString('base64url')}`,
        /"since"/,
      ],
      ['?limit=0', /"limit"/],
      ['?limit=501', /"limit"/],
      ['?page=2', /"page"/],
    ];
    for (const [query, error] of cases) {
      const res = await h.call(reader, 'get', `/api/v1/skills/changes${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(error);
    }
    const fr = await h.call(reader, 'get', '/api/v1/skills/changes?since=x').set('Accept-Language', 'fr');
    expect(fr.body).toEqual({ error: '« since » doit être un curseur renvoyé par ce flux dans nextCursor' });
  });

  it('never passes over a write that commits after a later one', async () => {
    const { nextCursor } = await changes('?limit=500');
    if (process.env.DATABASE_URL) {
      const t1 = new Client({ connectionString: h.databaseUrl });
      await t1.connect();
      try {
        await t1.query('BEGIN');
        await t1.query(
          `INSERT INTO collections.items (id, slug, name, visibility) VALUES (gen_random_uuid(), 'feed-early', 'Early', 'public')`,
        );
        await putSkill(h, 'feed-late'); // its transaction starts after T1's and commits first
        expect((await changes(`?since=${nextCursor}`)).changes).toEqual([]);
        await t1.query('COMMIT');
      } finally {
        await t1.end();
      }
      await changesShowing('feed-late', `?since=${nextCursor}`);
    } else {
      // PGlite is one session: model the open writer T1 by a row stamped above the oldest in-flight bound.
      await h.rows(
        `INSERT INTO collections.items (id, slug, name, visibility, written_xid)
         SELECT gen_random_uuid(), 'feed-early', 'Early', 'public', (pg_snapshot_xmin(pg_current_snapshot())::text::bigint + 40)::text::xid8`,
      );
      await putSkill(h, 'feed-late');
      expect((await changes(`?since=${nextCursor}`)).changes.map((c) => c.slug)).toEqual(['feed-late']);
      for (let n = 0; n < 60; n++) await h.rows('SELECT pg_current_xact_id()');
      await changesShowing('feed-early', `?since=${nextCursor}`);
    }
    const all = new Map<string, string>();
    await follow(all, nextCursor, 500);
    expect([...all.keys()].sort()).toEqual(['feed-early', 'feed-late']);
  });

  it('orders changes by transaction id as a number, so a transaction id with one more digit never hides the ones before it', async () => {
    // The position is compared as xid8; ordering by its text once sorted "10" before "9": the page
    // ended on the 10 and the 9 behind it was never delivered.
    await h.rows(
      `INSERT INTO collections.items (id, slug, name, visibility, written_xid) VALUES
         (gen_random_uuid(), 'feed-xid-nine', 'Nine', 'public', '9'::xid8),
         (gen_random_uuid(), 'feed-xid-ten', 'Ten', 'public', '10'::xid8)`,
    );
    expect((await changes('?limit=2')).changes.map((c) => c.slug)).toEqual(['feed-xid-nine', 'feed-xid-ten']);
    const mirror = new Map<string, string>();
    await follow(mirror, undefined, 1);
    expect(mirror.has('feed-xid-nine') && mirror.has('feed-xid-ten')).toBe(true);
  });
});
