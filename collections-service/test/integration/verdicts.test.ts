/**
 * Verdicts (docs/trust.md "Verdicts"): the worst of each scanner's latest,
 * an override in force, history, the scanner-only route, blocked items, and
 * the item's event for each change.
 */
import { ADMIN, START_TIMEOUT_MS, account, putSkill, startHarness, type Harness } from '../support/harness';
import { eventsOf, lastEventOf, published, scan, scanner } from '../support/releases';

describe('verdicts on releases', () => {
  let h: Harness;
  const reader = account();

  beforeAll(async () => {
    h = await startHarness();
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  const release = async (slug: string, version: string) =>
    (await h.call(reader, 'get', `/api/v1/skills/${slug}/versions/${version}`)).body.data.release;
  const skill = async (slug: string) => (await h.call(reader, 'get', `/api/v1/skills/${slug}`)).body.data.skill;
  const override = (slug: string, version: string, verdict: string, note: string) =>
    h.call(ADMIN, 'put', `/admin/v1/skills/${slug}/versions/${version}/override`).send({ verdict, note });

  it("records a scan under the scanner's own name (201) with the item's trust in its event", async () => {
    await putSkill(h, 'scanned');
    await published(h, 'scanned', '1.0.0');
    const res = await h
      .call(scanner('static-analysis'), 'post', '/api/v1/skills/scanned/versions/1.0.0/verdicts')
      .send({ verdict: 'clean', summary: 'no findings', reportUrl: 'https://scan.example/r/1' });
    expect(res.status).toBe(201);
    expect(res.body.data.release).toMatchObject({
      version: '1.0.0',
      verdict: 'clean',
      scans: [
        { scanner: 'static-analysis', verdict: 'clean', summary: 'no findings', reportUrl: 'https://scan.example/r/1' },
      ],
      override: null,
    });
    expect((await skill('scanned')).verdict).toBe('clean');
    expect((await lastEventOf(h, 'scanned')).trust).toEqual({
      latestVersion: '1.0.0',
      verdict: 'clean',
      publisherVerified: false,
      blockedReason: null,
    });
  });

  it('takes the name from the credential, never from the body', async () => {
    await putSkill(h, 'named');
    await published(h, 'named', '1.0.0');
    const res = await h
      .call(scanner('real-name'), 'post', '/api/v1/skills/named/versions/1.0.0/verdicts')
      .send({ verdict: 'clean', summary: 'ok', scanner: 'forged' });
    expect(res.status).toBe(400);
    expect((await release('named', '1.0.0')).scans).toEqual([]);
  });

  it("gives a release the worst of its scanners' latest verdicts, a newer verdict replacing that scanner's older one", async () => {
    await putSkill(h, 'worst');
    await published(h, 'worst', '2.0.0');
    await scan(h, 'worst', '2.0.0', 'static-analysis', 'clean');
    await scan(h, 'worst', '2.0.0', 'llm-review', 'suspicious', 'asks for a shell');
    expect((await release('worst', '2.0.0')).verdict).toBe('suspicious');
    expect((await skill('worst')).verdict).toBe('suspicious');

    await scan(h, 'worst', '2.0.0', 'llm-review', 'clean', 'shell use is documented');
    const after = await release('worst', '2.0.0');
    expect(after.verdict).toBe('clean');
    expect(after.scans.map((s: { scanner: string; verdict: string }) => [s.scanner, s.verdict]).sort()).toEqual([
      ['llm-review', 'clean'],
      ['static-analysis', 'clean'],
    ]);
    expect((await lastEventOf(h, 'worst')).trust?.verdict).toBe('clean');
  });

  it('blocks an item whose latest release is malicious, and still answers it by slug with the reason', async () => {
    await putSkill(h, 'stealer');
    await published(h, 'stealer', '0.3.0');
    await scan(h, 'stealer', '0.3.0', 'static-analysis', 'clean');
    await scan(h, 'stealer', '0.3.0', 'virus-scan', 'malicious', 'drops an info-stealer from a fake prerequisite');
    const res = await h.call(reader, 'get', '/api/v1/skills/stealer');
    expect(res.status).toBe(200);
    expect(res.body.data.skill).toMatchObject({
      slug: 'stealer',
      latestVersion: '0.3.0',
      verdict: 'malicious',
      blocked: true,
      blockedReason: 'drops an info-stealer from a fake prerequisite',
    });
    expect((await lastEventOf(h, 'stealer')).trust).toEqual({
      latestVersion: '0.3.0',
      verdict: 'malicious',
      publisherVerified: false,
      blockedReason: 'drops an info-stealer from a fake prerequisite',
    });
  });

  it('keeps a skill that turns malicious in the collections holding it, marked blocked with the reason', async () => {
    await putSkill(h, 'turned');
    await published(h, 'turned', '1.0.0');
    const created = await h.call(reader, 'post', '/api/v1/me/collections').send({ name: 'Held' });
    const path = `/api/v1/me/collections/${created.body.data.collection.id}`;
    await h.call(reader, 'patch', path).send({ skillSlug: 'turned' });
    const entry = async () => (await h.call(reader, 'get', path)).body.data.collection.skills[0];
    expect(await entry()).toMatchObject({
      slug: 'turned',
      verdict: 'unscanned',
      blocked: false,
      blockedReason: null,
      latestVersion: '1.0.0',
    });
    await scan(h, 'turned', '1.0.0', 'virus-scan', 'malicious', 'posts ~/.aws/credentials to a paste site');
    expect(await entry()).toMatchObject({
      slug: 'turned',
      verdict: 'malicious',
      blocked: true,
      blockedReason: 'posts ~/.aws/credentials to a paste site',
    });
  });

  it('refuses to add a blocked skill to a collection (409 with the reason, in English and French), adding nothing', async () => {
    await putSkill(h, 'refused');
    await published(h, 'refused', '1.0.0');
    await scan(h, 'refused', '1.0.0', 'virus-scan', 'malicious', 'runs a remote installer');
    const created = await h.call(reader, 'post', '/api/v1/me/collections').send({ name: 'Careful' });
    const path = `/api/v1/me/collections/${created.body.data.collection.id}`;
    const en = await h.call(reader, 'patch', path).send({ skillSlug: 'refused' });
    expect([en.status, en.body]).toEqual([
      409,
      { error: 'Skill "refused" is blocked and cannot be added: runs a remote installer' },
    ]);
    const fr = await h.call(reader, 'patch', path).set('Accept-Language', 'fr').send({ skillSlug: 'refused' });
    expect([fr.status, fr.body]).toEqual([
      409,
      { error: 'La compétence « refused » est bloquée et ne peut pas être ajoutée : runs a remote installer' },
    ]);
    expect((await h.call(reader, 'get', path)).body.data.collection.skillCount).toBe(0);
  });

  it("lets an operator's override win with its note, and clearing it restores the scans' verdict", async () => {
    await putSkill(h, 'overridden');
    await published(h, 'overridden', '1.0.0');
    await scan(h, 'overridden', '1.0.0', 'static-analysis', 'clean');

    const put = await override('overridden', '1.0.0', 'malicious', 'confirmed by the security team');
    expect(put.status).toBe(200);
    expect(put.body.data.release).toMatchObject({
      verdict: 'malicious',
      override: { verdict: 'malicious', note: 'confirmed by the security team' },
    });
    expect(await skill('overridden')).toMatchObject({
      verdict: 'malicious',
      blocked: true,
      blockedReason: 'confirmed by the security team',
    });
    expect((await lastEventOf(h, 'overridden')).trust?.blockedReason).toBe('confirmed by the security team');

    // a later scan does not beat the override in force
    await scan(h, 'overridden', '1.0.0', 'static-analysis', 'clean', 'still clean');
    expect((await release('overridden', '1.0.0')).verdict).toBe('malicious');

    const cleared = await h.call(ADMIN, 'delete', '/admin/v1/skills/overridden/versions/1.0.0/override');
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.release).toMatchObject({ verdict: 'clean', override: null });
    expect(await skill('overridden')).toMatchObject({ verdict: 'clean', blocked: false, blockedReason: null });
    expect((await lastEventOf(h, 'overridden')).trust?.verdict).toBe('clean');
  });

  it('keeps every scan, override and cleared override as history, newest first, paged', async () => {
    await putSkill(h, 'historic');
    await published(h, 'historic', '1.0.0');
    await scan(h, 'historic', '1.0.0', 'static-analysis', 'suspicious', 'first look');
    await override('historic', '1.0.0', 'clean', 'false positive');
    await h.call(ADMIN, 'delete', '/admin/v1/skills/historic/versions/1.0.0/override');
    await scan(h, 'historic', '1.0.0', 'static-analysis', 'clean', 'second look');

    const res = await h.call(reader, 'get', '/api/v1/skills/historic/versions/1.0.0/verdicts?limit=3');
    expect(res.status).toBe(200);
    expect(res.body.data.verdicts).toEqual([
      {
        kind: 'scan',
        scanner: 'static-analysis',
        verdict: 'clean',
        summary: 'second look',
        reportUrl: null,
        note: null,
        recordedAt: expect.any(String),
      },
      {
        kind: 'override-cleared',
        scanner: null,
        verdict: null,
        summary: null,
        reportUrl: null,
        note: null,
        recordedAt: expect.any(String),
      },
      {
        kind: 'override',
        scanner: null,
        verdict: 'clean',
        summary: null,
        reportUrl: null,
        note: 'false positive',
        recordedAt: expect.any(String),
      },
    ]);
    expect(res.body.data.pagination).toEqual({ page: 1, limit: 3, total: 4, totalPages: 2, hasMore: true });
    const next = await h.call(reader, 'get', '/api/v1/skills/historic/versions/1.0.0/verdicts?limit=3&page=2');
    expect(next.body.data.verdicts.map((v: { summary: string }) => v.summary)).toEqual(['first look']);
  });

  it('refuses the verdict route to any principal but a scanner, with 403 and a clear message', async () => {
    await putSkill(h, 'guarded');
    await published(h, 'guarded', '1.0.0');
    const body = { verdict: 'malicious', summary: 'not a scanner' };
    const byAccount = await h.call(reader, 'post', '/api/v1/skills/guarded/versions/1.0.0/verdicts').send(body);
    expect(byAccount.status).toBe(403);
    expect(byAccount.body.error).toBe('Only a scanner credential can record a verdict');
    const byAdmin = await h
      .call(ADMIN, 'post', '/api/v1/skills/guarded/versions/1.0.0/verdicts')
      .set('Accept-Language', 'fr')
      .send(body);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error).toBe('Seul un identifiant de scanner peut enregistrer un verdict');
    expect((await release('guarded', '1.0.0')).verdict).toBe('unscanned');
  });

  it('opens no route but the verdict one to a scanner credential', async () => {
    await putSkill(h, 'scanner-only');
    await published(h, 'scanner-only', '1.0.0');
    const robot = scanner('static-analysis');
    for (const [method, url] of [
      ['get', '/api/v1/skills/scanner-only'],
      ['get', '/api/v1/skills/scanner-only/versions'],
      ['get', '/api/v1/me/collections'],
      ['get', '/api/v1/skills/changes'],
    ] as const) {
      const res = await h.call(robot, method, url);
      expect([url, res.status, res.body.data]).toEqual([url, 403, undefined]);
    }
    const write = await h
      .call(robot, 'post', '/admin/v1/skills/scanner-only/versions/1.0.0:yank')
      .send({ reason: 'a scanner cannot yank' });
    expect(write.status).toBe(403);
    expect((await release('scanner-only', '1.0.0')).yanked).toBeNull();
  });

  it('answers 404 for a verdict on a release or an item that does not exist, and writes nothing', async () => {
    await putSkill(h, 'lonely');
    await published(h, 'lonely', '1.0.0');
    const before = await eventsOf(h, 'lonely');
    const missing = await scan(h, 'lonely', '1.0.1', 'static-analysis', 'clean');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Release 1.0.1 of "lonely" not found');
    expect((await scan(h, 'nobody-here', '1.0.0', 'static-analysis', 'clean')).status).toBe(404);
    expect((await override('lonely', '2.0.0', 'clean', 'n')).status).toBe(404);
    expect(await eventsOf(h, 'lonely')).toEqual(before);
    expect(await h.rows("SELECT 1 FROM collections.release_verdicts WHERE version = '1.0.1'")).toEqual([]);
  });

  it('refuses a bad verdict body with 400', async () => {
    await putSkill(h, 'picky');
    await published(h, 'picky', '1.0.0');
    const call = (body: object) =>
      h.call(scanner('s'), 'post', '/api/v1/skills/picky/versions/1.0.0/verdicts').send(body);
    expect((await call({ verdict: 'unscanned', summary: 'x' })).status).toBe(400);
    expect((await call({ verdict: 'clean', summary: '' })).status).toBe(400);
    expect((await call({ verdict: 'clean', summary: 's'.repeat(501) })).status).toBe(400);
    expect((await call({ verdict: 'clean', summary: 'x', reportUrl: 'javascript:alert(1)' })).status).toBe(400);
    expect((await release('picky', '1.0.0')).scans).toEqual([]);
  });

  it('judges the item by its latest release only', async () => {
    await putSkill(h, 'two-releases');
    await published(h, 'two-releases', '1.0.0', '1.1.0');
    await scan(h, 'two-releases', '1.0.0', 'virus-scan', 'malicious', 'old one was bad');
    expect(await skill('two-releases')).toMatchObject({ latestVersion: '1.1.0', verdict: 'unscanned', blocked: false });
    await h.call(ADMIN, 'post', '/admin/v1/skills/two-releases/versions/1.1.0:yank').send({ reason: 'rolled back' });
    expect(await skill('two-releases')).toMatchObject({
      latestVersion: '1.0.0',
      verdict: 'malicious',
      blocked: true,
      blockedReason: 'old one was bad',
    });
  });
});
