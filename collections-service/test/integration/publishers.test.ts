// @store-specific a trust change and its event in one transaction
/**
 * Publishers (docs/trust.md "Publishers") and the rule every trust change
 * shares: the item's event is written in the change's own transaction.
 */
import { PublisherService } from '../../src/domain/publisher.service';
import { ReleaseService } from '../../src/domain/release.service';
import { VerdictService } from '../../src/domain/verdict.service';
import { SequelizeStore } from '../../src/store/repositories';
import { storeWithBrokenOutbox } from '../support/broken-outbox';
import { ADMIN, START_TIMEOUT_MS, account, putSkill, startHarness, type Harness } from '../support/harness';
import { digestOf, eventsOf, lastEventOf, published, scan } from '../support/releases';
import { silentLogger } from '@skills/common/testing';

describe('publishers and the events of trust changes', () => {
  let h: Harness;
  const reader = account();

  beforeAll(async () => {
    h = await startHarness();
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  const skill = async (slug: string) => (await h.call(reader, 'get', `/api/v1/skills/${slug}`)).body.data.skill;

  it('verifies a publisher: every item of it changes, with one event each carrying publisherVerified', async () => {
    await putSkill(h, 'acme-pdf', { publisher: 'Acme' });
    await putSkill(h, 'acme-csv', { publisher: 'Acme' });
    await putSkill(h, 'other-pdf', { publisher: 'Other' });
    await published(h, 'acme-pdf', '1.0.0');
    const before = {
      pdf: await lastEventOf(h, 'acme-pdf'),
      csv: await lastEventOf(h, 'acme-csv'),
      other: (await eventsOf(h, 'other-pdf')).length,
    };

    const res = await h
      .call(ADMIN, 'put', '/admin/v1/publishers/Acme')
      .send({ verified: true, note: 'checked the domain' });
    expect(res.status).toBe(200);
    expect(res.body.data.publisher).toMatchObject({
      name: 'Acme',
      verified: true,
      note: 'checked the domain',
      itemCount: 2,
      verifiedAt: expect.any(String),
    });

    for (const slug of ['acme-pdf', 'acme-csv'] as const) {
      const event = await lastEventOf(h, slug);
      expect(event.trust?.publisherVerified).toBe(true);
      expect(event.version).toBe(before[slug === 'acme-pdf' ? 'pdf' : 'csv'].version + 1);
      expect((await skill(slug)).publisherVerified).toBe(true);
    }
    expect((await lastEventOf(h, 'acme-pdf')).trust?.latestVersion).toBe('1.0.0');
    expect(await eventsOf(h, 'other-pdf')).toHaveLength(before.other);
    expect((await skill('other-pdf')).publisherVerified).toBe(false);
    const releaseRead = await h.call(reader, 'get', '/api/v1/skills/acme-pdf/versions/1.0.0');
    expect(releaseRead.body.data.release.publisherVerified).toBe(true);

    await h.call(ADMIN, 'put', '/admin/v1/publishers/Acme').send({ verified: false });
    expect((await lastEventOf(h, 'acme-csv')).trust?.publisherVerified).toBe(false);
    expect((await skill('acme-csv')).publisherVerified).toBe(false);
  });

  it('lists publishers, those operators set and those items carry, filtered by verification', async () => {
    await putSkill(h, 'listed-a', { publisher: 'Listed Verified' });
    await putSkill(h, 'listed-b', { publisher: 'Listed Plain' });
    await h.call(ADMIN, 'put', '/admin/v1/publishers/Listed%20Verified').send({ verified: true });
    const verified = await h.call(ADMIN, 'get', '/admin/v1/publishers?verified=true&limit=50');
    expect(verified.status).toBe(200);
    const names = verified.body.data.publishers.map((p: { name: string }) => p.name);
    expect(names).toContain('Listed Verified');
    expect(names).not.toContain('Listed Plain');
    const plain = await h.call(ADMIN, 'get', '/admin/v1/publishers?verified=false&limit=50');
    expect(plain.body.data.publishers).toContainEqual({
      name: 'Listed Plain',
      verified: false,
      verifiedAt: null,
      note: null,
      itemCount: 1,
    });
    expect(plain.body.data.pagination).toMatchObject({ page: 1, limit: 50 });
  });

  it('refuses publisher writes from anyone but an operator, and a body without verified', async () => {
    expect((await h.call(reader, 'put', '/admin/v1/publishers/Acme').send({ verified: true })).status).toBe(403);
    expect((await h.call(ADMIN, 'put', '/admin/v1/publishers/Acme').send({ verified: 'yes' })).status).toBe(400);
  });

  it('rolls every trust change back when its event cannot be written, leaving no event', async () => {
    await putSkill(h, 'atomic', { publisher: 'Atomic Inc' });
    await published(h, 'atomic', '1.0.0');
    await scan(h, 'atomic', '1.0.0', 'static-analysis', 'clean');
    await h
      .call(ADMIN, 'put', '/admin/v1/skills/atomic/versions/1.0.0/override')
      .send({ verdict: 'suspicious', note: 'watching' });
    const state = async () => ({
      events: await eventsOf(h, 'atomic'),
      releases: await h.rows(
        "SELECT r.version, r.yanked_at, r.verdict FROM collections.releases r JOIN collections.items i ON i.id = r.item_id WHERE i.slug = 'atomic' ORDER BY 1",
      ),
      verdicts: await h.rows(
        "SELECT count(*)::int AS n FROM collections.release_verdicts v JOIN collections.items i ON i.id = v.item_id WHERE i.slug = 'atomic'",
      ),
      publishers: await h.rows("SELECT name, verified FROM collections.publishers WHERE name = 'Atomic Inc'"),
      item: await skill('atomic'),
    });
    const before = await state();

    const store = storeWithBrokenOutbox(new SequelizeStore(h.sequelize, silentLogger('trust-atomicity-test')));
    const releases = new ReleaseService(store);
    const verdicts = new VerdictService(store);
    const source = { repository: 'https://github.com/acme/x', ref: 'v2' };
    await expect(releases.publish('atomic', { version: '2.0.0', digest: digestOf('two'), source })).rejects.toThrow(
      'outbox unavailable',
    );
    await expect(releases.yank('atomic', '1.0.0', 'bad')).rejects.toThrow('outbox unavailable');
    await expect(
      verdicts.recordScan('atomic', '1.0.0', {
        scanner: 'virus-scan',
        verdict: 'malicious',
        summary: 'x',
        reportUrl: null,
      }),
    ).rejects.toThrow('outbox unavailable');
    await expect(verdicts.override('atomic', '1.0.0', 'malicious', 'n')).rejects.toThrow('outbox unavailable');
    await expect(verdicts.clearOverride('atomic', '1.0.0')).rejects.toThrow('outbox unavailable');
    await expect(new PublisherService(store).put('Atomic Inc', true, null)).rejects.toThrow('outbox unavailable');

    expect(await state()).toEqual(before);
  });
});
