/**
 * What the search side is rebuilt and mirrored from, end to end: a reindex
 * from the system of record, and the changes feed a mirror follows.
 */
import { translate } from '@skills/common';
import type { Stack } from './helpers';
import { eventually } from '@skills/common/testing';
import { BLOCKED, sample, searchSkills, startSampleStack } from './sample-stack';

let stack: Stack;
let key: string;
const search = (query: string, headers: Record<string, string> = {}) => searchSkills(stack, query, headers);

/** The active public items of the system of record, as a mirror reading the changes feed from the start holds them. */
async function recordedSlugs(): Promise<Set<string>> {
  const mirror = new Set<string>();
  for await (const page of stack.api().followSkillChanges(undefined, 500)) {
    for (const c of page.changes) {
      // a blocked item stays in the feed (a mirror keeps its verdict) and out of search
      if (c.change === 'upsert' && c.item.verdict !== 'malicious') mirror.add(c.slug);
      else mirror.delete(c.slug);
    }
  }
  return mirror;
}

beforeAll(async () => {
  stack = await startSampleStack();
  key = stack.info.apiKey;
}, 180_000);

afterAll(async () => {
  await stack?.dispose();
});

describe('POST /admin/v1/reindex', () => {
  it('rebuilds the search index from the system of record (202, then a job to poll) and search keeps answering', async () => {
    // what the record holds now, whatever the tests before left in it
    const recorded = await recordedSlugs();
    const started = await stack.client.call('POST', '/admin/v1/reindex', { token: stack.admin });
    expect(started.status).toBe(202);
    const jobId = started.body.data.job.id as string;
    expect(started.headers.get('location')).toBe(`/admin/v1/reindex/${jobId}`);
    const job = await eventually(
      async () => {
        const r = await stack.client.call('GET', `/admin/v1/reindex/${jobId}`, { token: stack.admin });
        return r.body.data?.job.status === 'running' ? undefined : r.body.data?.job;
      },
      'reindex finished',
      60_000,
    );
    expect(job.status).toBe('succeeded');
    expect(job.indexed).toBeGreaterThanOrEqual(recorded.size);
    const r = await search('?limit=1&trust=any');
    expect(r.body.data.pagination.total).toBe(recorded.size);
  }, 90_000);
});

describe('GET /api/v1/skills/changes', () => {
  /** Every active slug search can list, page after page, whatever its verdict (the blocked are never listed). */
  async function searchableSlugs(): Promise<string[]> {
    const slugs: string[] = [];
    for (let page = 1; ; page++) {
      const r = await search(`?limit=50&page=${page}&trust=any`);
      slugs.push(...(r.body.data.skills as Array<{ slug: string }>).map((s) => s.slug));
      if (!r.body.data.pagination.hasMore) return slugs.sort();
    }
  }

  it('lets a mirror follow the catalog from the start and stay equal to it through writes and deletes', async () => {
    const api = stack.api();
    const mirror = new Map<string, string>();
    const announced = new Set<string>();
    const apply = async (since?: string) => {
      let cursor = since;
      for await (const page of api.followSkillChanges(since, 100)) {
        for (const c of page.changes) {
          announced.add(c.slug);
          // the feed keeps a blocked item, with its verdict, so a mirror can explain it; search hides it
          if (c.change === 'upsert' && c.item.verdict !== 'malicious') mirror.set(c.slug, c.item.name);
          else mirror.delete(c.slug);
        }
        cursor = page.nextCursor;
      }
      return cursor as string;
    };
    const cursor = await apply();
    expect([...mirror.keys()].sort()).toEqual(await searchableSlugs());
    expect([...BLOCKED].filter((slug) => announced.has(slug))).toEqual([...BLOCKED]);
    // the sample's drafts were never active: the feed does not announce them, not even as deletes
    const drafts = sample.filter((i) => i.status === 'draft').map((i) => i.slug);
    expect(drafts.length).toBeGreaterThan(0);
    expect(drafts.filter((slug) => announced.has(slug))).toEqual([]);

    // polling with the same cursor: nothing new, and a 304 for the answer held
    const path = `/api/v1/skills/changes?since=${cursor}`;
    const idle = await stack.client.call('GET', path, { token: key });
    expect(idle.body.data).toEqual({ changes: [], nextCursor: cursor, hasMore: false });
    const same = await stack.client.call('GET', path, {
      token: key,
      headers: { 'if-none-match': idle.headers.get('etag') as string },
    });
    expect(same.status).toBe(304);

    const [gone] = [...mirror.keys()];
    const put = await stack.client.call('PUT', '/admin/v1/skills/mirror-newcomer', {
      token: stack.admin,
      json: {
        name: 'Mirror newcomer',
        description: 'Arrives after the mirror caught up.',
        type: 'plugin',
        category: 'testing',
      },
    });
    expect(put.status).toBe(201);
    expect((await stack.client.call('DELETE', `/admin/v1/skills/${gone}`, { token: stack.admin })).status).toBe(200);
    // On a shared test server another suite's open transaction can hold the two writes back a moment.
    let next = cursor;
    await eventually(
      async () => {
        next = await apply(next);
        return mirror.has('mirror-newcomer') && !mirror.has(gone as string) ? true : undefined;
      },
      'the mirror caught up',
      15_000,
    );
    expect(mirror.get('mirror-newcomer')).toBe('Mirror newcomer');
    await eventually(
      async () => {
        const slugs = await searchableSlugs();
        return slugs.includes('mirror-newcomer') && !slugs.includes(gone as string) ? slugs : undefined;
      },
      'search caught up',
      15_000,
    );
    expect([...mirror.keys()].sort()).toEqual(await searchableSlugs());
  }, 60_000);

  it('answers 400 naming the parameter, and 401 without a key', async () => {
    const bad = await stack.client.call('GET', '/api/v1/skills/changes?since=abc', {
      token: key,
      headers: { 'accept-language': 'fr' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: translate('validation.cursor', 'fr', { field: 'since' }) });
    // a position past xid8's range is not a cursor either (it was a 500: the cast failed in Postgres)
    const huge = Buffer.from('c1.99999999999999999999.00000000-0000-0000-0000-000000000000').toString('base64url');
    const outOfRange = await stack.client.call('GET', `/api/v1/skills/changes?since=${huge}`, { token: key });
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.body).toEqual({ error: translate('validation.cursor', 'en', { field: 'since' }) });
    const tooMany = await stack.client.call('GET', '/api/v1/skills/changes?limit=501', { token: key });
    expect(tooMany.body).toEqual({ error: translate('validation.numberMax', 'en', { field: 'limit', limit: 500 }) });
    const anonymous = await stack.client.call('GET', '/api/v1/skills/changes');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: translate('auth.invalidKey', 'en') });
  });
});
