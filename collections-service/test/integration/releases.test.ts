/**
 * Releases (docs/trust.md "Releases"): publishing and its immutability,
 * SemVer, yanking, "latest", the cap, and the event each change writes.
 */
import { ADMIN, START_TIMEOUT_MS, account, putSkill, startHarness, type Harness } from '../support/harness';
import { digestOf, eventsOf, lastEventOf, publish, published, releaseBody } from '../support/releases';

describe('releases of a public item', () => {
  let h: Harness;
  const reader = account();

  beforeAll(async () => {
    h = await startHarness();
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  const skill = async (slug: string) => (await h.call(reader, 'get', `/api/v1/skills/${slug}`)).body.data.skill;
  const versions = async (slug: string, query = '') =>
    (await h.call(reader, 'get', `/api/v1/skills/${slug}/versions${query}`)).body.data;

  it('publishes a release (201), answers a retry with the same digest 200, and refuses another digest with 409 naming both', async () => {
    await putSkill(h, 'pdf-tools', { version: 'whatever' });
    const created = await publish(h, 'pdf-tools', '1.4.0', 'first');
    expect(created.status).toBe(201);
    expect(created.body.data.release).toMatchObject({
      version: '1.4.0',
      digest: digestOf('first'),
      source: { repository: 'https://github.com/acme/pdf-skill', ref: 'v1.4.0' },
      yanked: null,
      verdict: 'unscanned',
      scans: [],
      override: null,
    });

    const retry = await publish(h, 'pdf-tools', '1.4.0', 'first');
    expect(retry.status).toBe(200);
    expect(retry.body.data.release.publishedAt).toBe(created.body.data.release.publishedAt);

    const eventsBefore = (await eventsOf(h, 'pdf-tools')).length;
    const conflict = await publish(h, 'pdf-tools', '1.4.0', 'tampered');
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toContain(digestOf('first'));
    expect(conflict.body.error).toContain(digestOf('tampered'));
    const fr = await h
      .call(ADMIN, 'post', '/admin/v1/skills/pdf-tools/versions')
      .set('Accept-Language', 'fr')
      .send(releaseBody('1.4.0', 'tampered'));
    expect(fr.status).toBe(409);
    expect(fr.body.error).toContain('déjà publiée');
    expect(fr.body.error).toContain(digestOf('first'));
    expect(fr.body.error).toContain(digestOf('tampered'));

    const read = await h.call(reader, 'get', '/api/v1/skills/pdf-tools/versions/1.4.0');
    expect(read.body.data.release.digest).toBe(digestOf('first'));
    // neither the retry nor the refusal wrote an event
    expect(await eventsOf(h, 'pdf-tools')).toHaveLength(eventsBefore);
    expect(await skill('pdf-tools')).toMatchObject({
      latestVersion: '1.4.0',
      version: '1.4.0',
      verdict: 'unscanned',
      blocked: false,
    });
  });

  it.each([
    ['a leading v', { version: 'v1.0.0' }],
    ['build metadata', { version: '1.0.0+build.5' }],
    ['not SemVer', { version: '1.0' }],
    ['a huge version', { version: `1.0.0-${'a'.repeat(100)}` }],
    ['a huge digest', { digest: `sha256:${'a'.repeat(100_000)}` }],
    ['an upper-case digest', { digest: digestOf('x').toUpperCase().replace('SHA256', 'sha256') }],
    ['another algorithm', { digest: `sha512:${'a'.repeat(64)}` }],
    ['an http source', { source: { repository: 'http://github.com/acme/x', ref: 'v1' } }],
    ['a bad ref', { source: { repository: 'https://github.com/acme/x', ref: 'v1 ; rm' } }],
  ])('refuses %s with 400 and changes nothing', async (name, change) => {
    const slug = `strict-${name.replace(/[^a-z]+/g, '-')}`;
    await putSkill(h, slug);
    const before = await eventsOf(h, slug);
    const res = await h
      .call(ADMIN, 'post', `/admin/v1/skills/${slug}/versions`)
      .send({ ...releaseBody('1.0.0'), ...change });
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
    expect((await versions(slug)).versions).toEqual([]);
    expect(await eventsOf(h, slug)).toEqual(before);
  });

  it('says in both languages what a SemVer version is', async () => {
    await putSkill(h, 'strict');
    const en = await h.call(ADMIN, 'post', '/admin/v1/skills/strict/versions').send(releaseBody('v1.0.0'));
    expect(en.body.error).toMatch(/"version" must be a SemVer version/);
    const fr = await h
      .call(ADMIN, 'post', '/admin/v1/skills/strict/versions')
      .set('Accept-Language', 'fr')
      .send(releaseBody('1.0.0+b'));
    expect(fr.body.error).toMatch(/« version » doit être une version SemVer/);
  });

  it('answers 404 for a release of an unknown item', async () => {
    expect((await publish(h, 'no-such-item', '1.0.0')).status).toBe(404);
  });

  it('keeps a stable release latest over a higher pre-release, and lists versions newest first by precedence, paged', async () => {
    await putSkill(h, 'ordered');
    await published(h, 'ordered', '1.10.0', '1.2.0', '2.0.0-rc.1', '1.9.0', '2.0.0-beta.2');
    expect((await skill('ordered')).latestVersion).toBe('1.10.0');
    const first = await versions('ordered', '?limit=3');
    expect(first.versions.map((v: { version: string }) => v.version)).toEqual(['2.0.0-rc.1', '2.0.0-beta.2', '1.10.0']);
    expect(first.pagination).toEqual({ page: 1, limit: 3, total: 5, totalPages: 2, hasMore: true });
    const second = await versions('ordered', '?limit=3&page=2');
    expect(second.versions.map((v: { version: string }) => v.version)).toEqual(['1.9.0', '1.2.0']);
  });

  it('takes a yanked release out of latest, keeps it readable by exact version, and restores it on unyank', async () => {
    await putSkill(h, 'yanky');
    await published(h, 'yanky', '1.0.0', '1.1.0');
    expect((await skill('yanky')).latestVersion).toBe('1.1.0');

    const yanked = await h
      .call(ADMIN, 'post', '/admin/v1/skills/yanky/versions/1.1.0:yank')
      .send({ reason: 'leaks tokens' });
    expect(yanked.status).toBe(200);
    expect(yanked.body.data.release.yanked).toMatchObject({ reason: 'leaks tokens' });
    expect(await skill('yanky')).toMatchObject({ latestVersion: '1.0.0', version: '1.0.0' });
    expect((await lastEventOf(h, 'yanky')).trust?.latestVersion).toBe('1.0.0');
    const exact = await h.call(reader, 'get', '/api/v1/skills/yanky/versions/1.1.0');
    expect(exact.status).toBe(200);
    expect(exact.body.data.release.yanked.reason).toBe('leaks tokens');
    expect((await versions('yanky')).versions.map((v: { version: string }) => v.version)).toEqual(['1.1.0', '1.0.0']);

    const restored = await h.call(ADMIN, 'post', '/admin/v1/skills/yanky/versions/1.1.0:unyank');
    expect(restored.status).toBe(200);
    expect(restored.body.data.release.yanked).toBeNull();
    expect((await skill('yanky')).latestVersion).toBe('1.1.0');
    expect((await lastEventOf(h, 'yanky')).trust?.latestVersion).toBe('1.1.0');
  });

  it('has no latest once every release is yanked', async () => {
    await putSkill(h, 'all-gone');
    await published(h, 'all-gone', '0.1.0');
    await h.call(ADMIN, 'post', '/admin/v1/skills/all-gone/versions/0.1.0:yank').send({ reason: 'withdrawn' });
    expect(await skill('all-gone')).toMatchObject({ latestVersion: null, verdict: 'unscanned' });
  });

  it('answers 404 for a version the item does not have, and for yanking one', async () => {
    await putSkill(h, 'sparse');
    await published(h, 'sparse', '1.0.0');
    expect((await h.call(reader, 'get', '/api/v1/skills/sparse/versions/9.9.9')).status).toBe(404);
    expect((await h.call(reader, 'get', '/api/v1/skills/sparse/versions/not-semver')).status).toBe(404);
    expect(
      (await h.call(ADMIN, 'post', '/admin/v1/skills/sparse/versions/9.9.9:yank').send({ reason: 'x' })).status,
    ).toBe(404);
  });

  it('writes the item with its trust to the outbox for every publish, bumping its version', async () => {
    await putSkill(h, 'evented');
    const before = await lastEventOf(h, 'evented');
    await published(h, 'evented', '0.9.0');
    const after = await lastEventOf(h, 'evented');
    expect(after.version).toBe(before.version + 1);
    expect(after.trust).toEqual({
      latestVersion: '0.9.0',
      verdict: 'unscanned',
      publisherVerified: false,
      blockedReason: null,
    });
    expect(after.details?.version).toBe('0.9.0');
  });

  it('hands a reindex the item with its trust (GET /admin/v1/items)', async () => {
    await putSkill(h, 'reindexed');
    await published(h, 'reindexed', '4.1.0');
    const res = await h.call(ADMIN, 'get', '/admin/v1/items?limit=5000');
    const item = res.body.data.items.find((i: { slug: string }) => i.slug === 'reindexed');
    expect(item.trust).toEqual({
      latestVersion: '4.1.0',
      verdict: 'unscanned',
      publisherVerified: false,
      blockedReason: null,
    });
    expect(item.details.version).toBe('4.1.0');
  });

  it("keeps the item's version at latestVersion when the item is written again", async () => {
    await putSkill(h, 'rewritten');
    await published(h, 'rewritten', '3.0.0');
    await putSkill(h, 'rewritten', { version: '0.0.1', description: 'new text' });
    expect(await skill('rewritten')).toMatchObject({
      version: '3.0.0',
      latestVersion: '3.0.0',
      description: 'new text',
    });
    expect((await lastEventOf(h, 'rewritten')).trust?.latestVersion).toBe('3.0.0');
  });

  it('refuses a release beyond 1,000 per item with 409', async () => {
    await putSkill(h, 'prolific');
    await h.rows(
      `INSERT INTO collections.releases (item_id, version, digest, source_repository, source_ref)
       SELECT i.id, '0.0.' || g, 'sha256:' || repeat('a', 64), 'https://e.com/r', 'v'
       FROM collections.items i, generate_series(1, 1000) g WHERE i.slug = 'prolific'`,
    );
    const res = await publish(h, 'prolific', '1.0.0');
    expect(res.status).toBe(409);
    expect(res.body.error).toContain('1000');
  });
});
