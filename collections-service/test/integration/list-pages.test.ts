/**
 * List pages stay bounded whatever the collections hold: each collection
 * carries its entry count and only its first entries (docs/collections.md
 * "Quotas and bounded answers").
 */
import { account, putSkill, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';

/** The documented bound of one list page (docs/collections.md); the test below builds the worst case. */
const LIST_PAGE_MAX_BYTES = 4 * 1024 * 1024;

describe('collection list pages', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    for (const slug of ['one', 'two', 'three', 'four', 'five', 'six', 'seven']) await putSkill(h, `preview-${slug}`);
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  it("shows each collection's count and its first five entries; the detail shows them all", async () => {
    const owner = account();
    const created = await h.call(owner, 'post', '/api/v1/me/collections').send({ name: 'Seven' });
    const id = created.body.data.collection.id as string;
    const slugs = ['one', 'two', 'three', 'four', 'five', 'six', 'seven'].map((s) => `preview-${s}`);
    for (const skillSlug of slugs)
      expect((await h.call(owner, 'patch', `/api/v1/me/collections/${id}`).send({ skillSlug })).status).toBe(200);

    const list = await h.call(owner, 'get', '/api/v1/me/collections');
    const [listed] = list.body.data.collections as Array<{ skillCount: number; skills: Array<{ slug: string }> }>;
    expect(listed?.skillCount).toBe(7);
    expect(listed?.skills.map((s) => s.slug)).toEqual(slugs.slice(0, 5));
    const detail = await h.call(owner, 'get', `/api/v1/me/collections/${id}`);
    expect(detail.body.data.collection.skillCount).toBe(7);
    expect(detail.body.data.collection.skills.map((s: { slug: string }) => s.slug)).toEqual(slugs);
  });

  it('keeps a page of 50 full collections at their length limits under the documented bound', async () => {
    const owner = account();
    // Every character a control character: JSON writes each as \u00XX, six bytes, the most any character costs.
    const worst = (length: number) => '\u0001'.repeat(length);
    await h.rows(
      `INSERT INTO collections.items (id, name, description, visibility, owner_account_id)
       SELECT gen_random_uuid(), $2 || n, $3, 'private', $1 FROM generate_series(1, 5) n`,
      [owner.accountId, worst(118), worst(2000)],
    );
    await h.rows(
      `INSERT INTO collections.items (id, slug, name, visibility)
       SELECT gen_random_uuid(), 'page-bulk-' || n, 'Bulk skill number ' || n, 'public' FROM generate_series(1, 995) n`,
    );
    await h.rows(
      `INSERT INTO collections.collections (id, owner_account_id, created_by, name, description)
       SELECT gen_random_uuid(), $1, $1, $2, $3 FROM generate_series(1, 50)`,
      [owner.accountId, worst(120), worst(2000)],
    );
    // 1,000 entries each (the quota): the five worst private skills first, then ordinary public ones
    await h.rows(
      `INSERT INTO collections.collection_entries (collection_id, item_id)
       SELECT c.id, i.id FROM collections.collections c
       CROSS JOIN (SELECT id, 0 AS rank FROM collections.items WHERE owner_account_id = $1
                   UNION ALL SELECT id, 1 FROM collections.items WHERE slug LIKE 'page-bulk-%') i
       WHERE c.owner_account_id = $1 ORDER BY c.id, i.rank, i.id`,
      [owner.accountId],
    );
    const page = await h.call(owner, 'get', '/api/v1/me/collections?limit=50');
    expect(page.status).toBe(200);
    expect(page.body.data.collections).toHaveLength(50);
    expect(
      page.body.data.collections.every(
        (c: { skillCount: number; skills: unknown[] }) => c.skillCount === 1000 && c.skills.length === 5,
      ),
    ).toBe(true);
    const bytes = Buffer.byteLength(page.text);
    expect(bytes).toBeLessThanOrEqual(LIST_PAGE_MAX_BYTES);
    console.log(`worst-case list page: ${bytes} bytes`);
  }, 60_000);
});
