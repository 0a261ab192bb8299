/**
 * Releases through the NDJSON import and out through the changes feed
 * (docs/trust.md "Import" and "Events and the changes feed").
 */
import {
  ADMIN,
  IMPORT_PATH,
  START_TIMEOUT_MS,
  account,
  putSkill,
  startHarness,
  type Harness,
} from '../support/harness';
import { digestOf, lastEventOf, published, releaseBody, scan } from '../support/releases';

const NDJSON = 'application/x-ndjson';

function line(slug: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    slug,
    name: `Item ${slug}`,
    description: `About ${slug}`,
    type: 'skill',
    category: 'bulk',
    ...extra,
  });
}

interface FeedRelease {
  version: string;
  digest: string;
  verdict: string;
  yanked: { reason: string } | null;
  source: { repository: string; ref: string };
}
interface Change {
  slug: string;
  change: 'upsert' | 'delete';
  item?: {
    latestVersion: string | null;
    verdict: string;
    publisherVerified: boolean;
    blocked: boolean;
    releases: FeedRelease[];
  };
}

describe('releases in the import and the changes feed', () => {
  let h: Harness;
  const reader = account();

  beforeAll(async () => {
    h = await startHarness();
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  const post = (body: string) => h.call(ADMIN, 'post', IMPORT_PATH).set('Content-Type', NDJSON).send(body);
  const versionsOf = async (slug: string) =>
    (await h.call(reader, 'get', `/api/v1/skills/${slug}/versions`)).body.data.versions.map(
      (v: { version: string; yanked: unknown }) => [v.version, v.yanked !== null],
    );

  /** Every change of the feed once it shows `slug` as written last (another suite's open transaction may hold it back a moment). */
  async function feedShowing(slug: string, test: (c: Change) => boolean): Promise<Change> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await h.call(reader, 'get', '/api/v1/skills/changes?limit=500');
      const found = (res.body.data.changes as Change[]).find((c) => c.slug === slug && test(c));
      if (found || Date.now() > deadline) return found as Change;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('imports a line with its releases in one transaction, a yanked one included', async () => {
    const releases = [
      releaseBody('1.0.0'),
      releaseBody('1.1.0', '1.1.0-artifact', { yanked: { reason: 'broken upload' } }),
      releaseBody('0.9.0-beta.1'),
    ];
    const res = await post(`${line('imported', { releases })}\n${line('plain')}\n`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { imported: 2 } });
    expect(await versionsOf('imported')).toEqual([
      ['1.1.0', true],
      ['1.0.0', false],
      ['0.9.0-beta.1', false],
    ]);
    const item = (await h.call(reader, 'get', '/api/v1/skills/imported')).body.data.skill;
    expect(item).toMatchObject({ latestVersion: '1.0.0', version: '1.0.0', verdict: 'unscanned' });
    expect((await lastEventOf(h, 'imported')).trust?.latestVersion).toBe('1.0.0');

    // importing the same lines again is a retry: same digests, nothing refused
    expect((await post(line('imported', { releases }))).status).toBe(200);
  });

  it('fails the whole import on a conflicting digest, naming the line and both digests', async () => {
    await putSkill(h, 'pinned');
    await published(h, 'pinned', '2.0.0');
    const body = `${line('innocent-bystander')}\n${line('pinned', { releases: [releaseBody('2.0.0', 'other bytes')] })}\n`;
    const res = await post(body);
    expect(res.status).toBe(409);
    expect(res.body.error).toContain('Line 2');
    expect(res.body.error).toContain(digestOf('2.0.0-artifact'));
    expect(res.body.error).toContain(digestOf('other bytes'));
    expect((await h.call(reader, 'get', '/api/v1/skills/innocent-bystander')).status).toBe(404);
  });

  it('refuses a line with a bad release or over 100 releases with 400, importing nothing', async () => {
    const bad = await post(`${line('never-a')}\n${line('never-b', { releases: [releaseBody('1.0.0+meta')] })}\n`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('Line 2');
    const many = Array.from({ length: 101 }, (_, i) => releaseBody(`1.0.${i}`));
    expect((await post(line('never-c', { releases: many }))).status).toBe(400);
    for (const slug of ['never-a', 'never-b', 'never-c'])
      expect((await h.call(reader, 'get', `/api/v1/skills/${slug}`)).status).toBe(404);
  });

  it("carries releases, newest first with digest, source, yank and verdict, and the trust in the feed's upserts", async () => {
    await putSkill(h, 'mirrored');
    await published(h, 'mirrored', '1.0.0', '1.2.0');
    await scan(h, 'mirrored', '1.2.0', 'static-analysis', 'clean');
    const change = await feedShowing('mirrored', (c) => c.item?.verdict === 'clean');
    expect(change.change).toBe('upsert');
    expect(change.item).toMatchObject({
      latestVersion: '1.2.0',
      verdict: 'clean',
      publisherVerified: false,
      blocked: false,
    });
    expect(change.item?.releases).toEqual([
      {
        version: '1.2.0',
        publishedAt: expect.any(String),
        digest: digestOf('1.2.0-artifact'),
        source: { repository: 'https://github.com/acme/pdf-skill', ref: 'v1.2.0' },
        yanked: null,
        verdict: 'clean',
      },
      {
        version: '1.0.0',
        publishedAt: expect.any(String),
        digest: digestOf('1.0.0-artifact'),
        source: { repository: 'https://github.com/acme/pdf-skill', ref: 'v1.0.0' },
        yanked: null,
        verdict: 'unscanned',
      },
    ]);
  });

  it('keeps a blocked item an upsert in the feed, with its verdict', async () => {
    await putSkill(h, 'mirrored-bad');
    await published(h, 'mirrored-bad', '1.0.0');
    await scan(h, 'mirrored-bad', '1.0.0', 'virus-scan', 'malicious', 'exfiltrates mail');
    const change = await feedShowing('mirrored-bad', (c) => c.item?.verdict === 'malicious');
    expect(change.change).toBe('upsert');
    expect(change.item).toMatchObject({
      verdict: 'malicious',
      blocked: true,
      releases: [{ version: '1.0.0', verdict: 'malicious' }],
    });
  });
});
