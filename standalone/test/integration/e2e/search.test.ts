/**
 * GET /api/v1/skills end to end: the sample catalog loaded on first start,
 * search, filters, pagination, the §3 validation rules, and admin writes
 * reaching the search side through the outbox and the indexer.
 */
import { translate } from '@skills/common';
import { FR, type Json, type Stack } from './helpers';
import { eventually } from '@skills/common/testing';
import { BLOCKED, sample, searchSkills, SHOWN, startSampleStack, SUSPICIOUS } from './sample-stack';

let stack: Stack;
let key: string;
const search = (query: string, headers: Record<string, string> = {}) => searchSkills(stack, query, headers);

/** Deletes what a test wrote, in its `finally`: a failed test must not leave items for the next ones to count. */
async function removeSkills(...slugs: string[]): Promise<void> {
  for (const slug of slugs) {
    const res = await stack.client.call('DELETE', `/admin/v1/skills/${slug}`, { token: stack.admin });
    // 404: already deleted (by the test itself, or never written)
    if (res.status !== 200 && res.status !== 404)
      throw new Error(`DELETE ${slug}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** The active public items of the system of record, as a mirror reading the changes feed from the start holds them. */
beforeAll(async () => {
  stack = await startSampleStack();
  key = stack.info.apiKey;
}, 180_000);

afterAll(async () => {
  await stack?.dispose();
});

describe('GET /api/v1/skills', () => {
  it('lists active items, newest first, with the default page and limit', async () => {
    const r = await search('');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['data']);
    expect(r.body.data.skills).toHaveLength(20);
    expect(r.body.data.pagination).toEqual({
      page: 1,
      limit: 20,
      total: SHOWN,
      totalPages: Math.ceil(SHOWN / 20),
      hasMore: true,
    });
    const item = r.body.data.skills[0];
    expect(Object.keys(item).sort()).toEqual([
      'category',
      'description',
      'downloads',
      'homepageUrl',
      'id',
      'latestVersion',
      'license',
      'name',
      'publisher',
      'publisherVerified',
      'repositoryUrl',
      'slug',
      'tags',
      'type',
      'updatedAt',
      'verdict',
      'version',
    ]);
  });

  it('is safe by default: the blocked item is never found and explained when read, a suspicious one only on request', async () => {
    expect([BLOCKED.size, SUSPICIOUS.size > 0]).toEqual([1, true]);
    const [blocked] = [...BLOCKED];
    const name = sample.find((i) => i.slug === blocked)!.name;
    // its full name, then its first word (which its neighbours share), then a browse
    const firstWord = encodeURIComponent(name.split(' ')[0]!);
    for (const query of [
      `?q=${encodeURIComponent(name)}&trust=any`,
      `?q=${firstWord}&limit=50`,
      `?q=${firstWord}&limit=50&trust=any`,
      '?limit=50&trust=any&sort=name',
    ]) {
      const r = await search(query);
      expect(r.status).toBe(200);
      expect(r.body.data.skills.map((s: Json) => s.slug)).not.toContain(blocked);
    }
    // its neighbours are found: the item is missing, not the search
    expect((await search(`?q=${firstWord}&limit=50&trust=any`)).body.data.pagination.total).toBeGreaterThan(0);
    const read = await stack.client.call('GET', `/api/v1/skills/${blocked}`, { token: key });
    expect(read.status).toBe(200);
    expect(read.body.data.skill).toMatchObject({
      slug: blocked,
      verdict: 'malicious',
      blocked: true,
      blockedReason: expect.stringContaining('credential'),
    });
    const [suspicious] = [...SUSPICIOUS];
    const suspiciousName = encodeURIComponent(sample.find((i) => i.slug === suspicious)!.name);
    expect((await search(`?q=${suspiciousName}&limit=50`)).body.data.skills.map((s: Json) => s.slug)).not.toContain(
      suspicious,
    );
    const asked = await search(`?q=${suspiciousName}&limit=50&trust=any&facets=trust`);
    expect(asked.body.data.skills.find((s: Json) => s.slug === suspicious)).toMatchObject({ verdict: 'suspicious' });
    expect(asked.body.data.facets.trust.map((f: Json) => f.value)).toContain('suspicious');
  });

  it('never shows draft items', async () => {
    const draft = sample.find((i) => i.status === 'draft');
    expect(draft).toBeDefined();
    const r = await search(`?q=${encodeURIComponent(draft!.name)}&limit=50&trust=any`);
    expect(r.status).toBe(200);
    expect(r.body.data.skills.map((s: Json) => s.slug)).not.toContain(draft!.slug);
    // the same search finds an active item by its name: the draft is missing, not the search
    const active = sample.find((i) => i.status === 'active' && i.category === draft!.category)!;
    const found = await search(`?q=${encodeURIComponent(active.name)}&limit=50&trust=any`);
    expect(found.body.data.skills.map((s: Json) => s.slug)).toContain(active.slug);
  });

  it('finds items by words of the name, by prefix and despite a typo', async () => {
    const exact = await search('?q=dockerfile');
    expect(exact.body.data.skills.map((s: Json) => s.slug)).toContain('dockerfile-linter');
    const prefix = await search('?q=dockerf');
    expect(prefix.body.data.skills.map((s: Json) => s.slug)).toContain('dockerfile-linter');
    const typo = await search('?q=dockrfile');
    expect(typo.body.data.skills.map((s: Json) => s.slug)).toContain('dockerfile-linter');
    const swapped = await search('?q=dokcer');
    expect(swapped.body.data.skills.map((s: Json) => s.slug)).toContain('dockerfile-linter');
  });

  it('filters by tags (all required) and counts facets over every match', async () => {
    const tagged = sample.filter((i) => i.status === 'active' && (i as { tags?: string[] }).tags?.includes('docker'));
    expect(tagged.length).toBeGreaterThan(0);
    const r = await search('?tag=docker&facets=category,type&limit=50');
    expect(r.status).toBe(200);
    expect(r.body.data.skills.map((s: Json) => s.slug).sort()).toEqual(tagged.map((i) => i.slug).sort());
    const byCategory = new Map<string, number>();
    for (const i of tagged) byCategory.set(i.category, (byCategory.get(i.category) ?? 0) + 1);
    expect(Object.fromEntries(r.body.data.facets.category.map((f: Json) => [f.value, f.count]))).toEqual(
      Object.fromEntries(byCategory),
    );
    expect(r.body.data.facets.type.reduce((n: number, f: Json) => n + f.count, 0)).toBe(tagged.length);
    const both = await search('?tag=docker&tag=no-such-tag');
    expect(both.body.data.pagination.total).toBe(0);
  });

  it.each([
    ['?limit=0', 'limit', '1'],
    ['?limit=51', 'limit', '50'],
    ['?page=0', 'page', '1'],
    ['?limit=abc', 'limit', undefined],
    ['?page=two', 'page', undefined],
    ['?page=201&limit=50', 'page', '10000'],
    ['?type=widget', 'type', 'plugin'],
    ['?sort=price', 'sort', 'popular'],
    ['?facets=category,price', 'facets', 'category, type'],
    [`?tag=${'x'.repeat(51)}`, 'tag', '50'],
  ])('answers 400 to %s naming the parameter and the bound', async (query, name, bound) => {
    const r = await search(query);
    expect(r.status).toBe(400);
    expect(Object.keys(r.body)).toEqual(['error']);
    expect(r.body.error).toContain(name);
    if (bound) expect(r.body.error).toContain(bound);
  });

  it('says what is wrong in French with Accept-Language: fr', async () => {
    const r = await search('?limit=51', FR);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(translate('validation.numberMax', 'fr', { field: 'limit', limit: 50 }));
  });
});

describe('admin writes reaching search', () => {
  const slug = 'e2e-zebra-stripe-auditor';
  const put = (fields: Record<string, unknown>) =>
    stack.client.call('PUT', `/admin/v1/skills/${slug}`, {
      token: stack.admin,
      json: {
        name: 'Zebra Stripe Auditor',
        description: 'Audits zebra stripes for consistency.',
        type: 'plugin',
        category: 'testing',
        tags: ['zebra'],
        ...fields,
      },
    });
  const findZebra = async () => {
    const r = await search('?q=zebra');
    return r.body.data.skills.find((s: Json) => s.slug === slug);
  };

  it('makes a PUT skill searchable, then an update, then removes it on DELETE', async () => {
    try {
      await zebraLifecycle();
    } finally {
      await removeSkills(slug);
    }
  }, 60_000);

  async function zebraLifecycle(): Promise<void> {
    const created = await put({});
    expect(created.status).toBe(201);
    expect(created.body.data.skill).toMatchObject({
      slug,
      name: 'Zebra Stripe Auditor',
      type: 'plugin',
      category: 'testing',
    });
    const found = await eventually(findZebra, 'new skill searchable', 15_000);
    expect(found).toMatchObject({ slug, type: 'plugin', category: 'testing', tags: ['zebra'] });

    const updated = await put({ name: 'Zebra Stripe Inspector' });
    expect(updated.status).toBe(200);
    await eventually(
      async () => ((await findZebra())?.name === 'Zebra Stripe Inspector' ? true : undefined),
      'update searchable',
      15_000,
    );

    const deleted = await stack.client.call('DELETE', `/admin/v1/skills/${slug}`, { token: stack.admin });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ data: { deleted: true } });
    await eventually(
      async () => ((await findZebra()) === undefined ? true : undefined),
      'deleted skill gone from search',
      15_000,
    );
  }

  it('shows the registry details and ranks the most downloaded first among equal matches and on sort=popular', async () => {
    const details = {
      publisher: 'Quokka Labs',
      version: '3.0.1',
      license: 'MIT',
      repositoryUrl: 'https://github.com/quokka/helper',
      homepageUrl: null,
    };
    const write = (s: string, name: string, downloads: number) =>
      stack.client.call('PUT', `/admin/v1/skills/${s}`, {
        token: stack.admin,
        json: { name, description: 'Helps quokkas.', type: 'skill', category: 'testing', ...details, downloads },
      });
    try {
      expect((await write('e2e-quokka-alpha', 'Quokka Alpha Helper', 10)).status).toBe(201);
      // more used than any item of the sample catalog
      const most = Math.max(...sample.map((i) => i.downloads)) + 1;
      expect((await write('e2e-quokka-gamma', 'Quokka Gamma Helper', most)).status).toBe(201);
      const found = await eventually(
        async () => {
          const r = await search('?q=quokka');
          return r.body.data.pagination.total === 2 ? r.body.data.skills : undefined;
        },
        'quokkas searchable',
        15_000,
      );
      expect(found.map((s: Json) => s.slug)).toEqual(['e2e-quokka-gamma', 'e2e-quokka-alpha']);
      expect(found[0]).toMatchObject({ ...details, downloads: most });
      const popular = await search('?sort=popular&limit=1');
      expect(popular.body.data.skills.map((s: Json) => s.slug)).toEqual(['e2e-quokka-gamma']);
      const popularQuokkas = await search('?q=quokka&sort=popular');
      expect(popularQuokkas.body.data.skills.map((s: Json) => s.slug)).toEqual([
        'e2e-quokka-gamma',
        'e2e-quokka-alpha',
      ]);
    } finally {
      await removeSkills('e2e-quokka-alpha', 'e2e-quokka-gamma');
    }
  }, 60_000);

  it('suggests a close spelling that finds more when a query finds fewer than 3 items', async () => {
    const write = (s: string, name: string) =>
      stack.client.call('PUT', `/admin/v1/skills/${s}`, {
        token: stack.admin,
        json: { name, description: 'Counts burrows.', category: 'testing' },
      });
    try {
      expect((await write('e2e-marmot-mapper', 'Marmot Burrow Mapper')).status).toBe(201);
      expect((await write('e2e-marmots-census', 'Marmots Census')).status).toBe(201);
      // "marmto" is one swap from "marmot" only: it finds the mapper; "marmot" also finds "marmots" as a prefix
      const typo = await eventually(
        async () => {
          const r = await search('?q=marmto');
          return r.body.data.suggestion ? r : undefined;
        },
        'both marmots searchable',
        15_000,
      );
      expect(typo.body.data.skills.map((s: Json) => s.slug)).toEqual(['e2e-marmot-mapper']);
      expect(typo.body.data.suggestion).toEqual({ q: 'marmot', total: 2 });
      const fr = await search('?q=marmto', FR);
      expect(fr.body.data.suggestion).toEqual({ q: 'marmot', total: 2 });
      expect((await search('?q=marmot')).body.data).not.toHaveProperty('suggestion');
    } finally {
      await removeSkills('e2e-marmot-mapper', 'e2e-marmots-census');
    }
  }, 60_000);

  it('refuses the admin API without the admin token', async () => {
    const r = await stack.client.call('PUT', `/admin/v1/skills/${slug}`, { token: key, json: { name: 'x' } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: 'Invalid admin token' });
  });
});
