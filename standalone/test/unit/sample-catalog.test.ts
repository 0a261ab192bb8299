/**
 * The bundled sample catalog: what `npm start` loads on a first start. It is
 * the generator's output byte for byte (so it can be regenerated, never
 * hand-edited), and every item carries the registry details a real catalog
 * would, in the forms the admin import accepts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  generateSampleCatalog,
  sampleTrust,
  type SampleItem,
  type SampleTrust,
} from '../../scripts/generate-sample-catalog';
import { DEMO_SKILLS } from '../../src/seed';

const file = readFileSync(join(__dirname, '..', '..', 'data', 'sample-catalog.ndjson'), 'utf8');
const items = file
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Record<string, unknown>);
const trustFile = readFileSync(join(__dirname, '..', '..', 'data', 'sample-trust.json'), 'utf8');
const trust = JSON.parse(trustFile) as SampleTrust;

describe('the sample catalog', () => {
  it('is what the generator writes, the catalog and its trust', () => {
    const generated = generateSampleCatalog();
    expect(file).toBe(`${generated.map((item) => JSON.stringify(item)).join('\n')}\n`);
    expect(trustFile).toBe(`${JSON.stringify(sampleTrust(generated), null, 2)}\n`);
  });

  it('gives every item releases that end at its version, with distinct sha256 digests, oldest first', () => {
    for (const item of items as unknown as SampleItem[]) {
      expect(item.releases.length).toBeGreaterThanOrEqual(1);
      expect(item.releases.at(-1)!.version).toBe(item.version);
      const times = item.releases.map((r) => Date.parse(r.publishedAt));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      for (const r of item.releases) {
        expect(r.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
        expect(r.source).toEqual({ repository: item.repositoryUrl, ref: `v${r.version}` });
      }
      expect(new Set(item.releases.map((r) => r.version)).size).toBe(item.releases.length);
    }
    const several = items.filter((i) => (i as unknown as SampleItem).releases.length > 1).length;
    expect(several).toBeGreaterThan(items.length / 3);
    expect(items.some((i) => (i as unknown as SampleItem).releases.some((r) => r.yanked))).toBe(true);
  });

  it('shows a newcomer every verdict: mostly clean, some unscanned, a few suspicious, one blocked, none of them in the demo collection', () => {
    const worst = new Map<string, string>();
    const rank = ['clean', 'suspicious', 'malicious'];
    for (const v of trust.verdicts) {
      const before = worst.get(v.slug);
      if (before === undefined || rank.indexOf(v.verdict) > rank.indexOf(before)) worst.set(v.slug, v.verdict);
    }
    const active = (items as unknown as SampleItem[]).filter((i) => i.status === 'active');
    const count = (verdict: string) => [...worst.values()].filter((v) => v === verdict).length;
    expect(count('malicious')).toBe(1);
    expect(count('suspicious')).toBeGreaterThanOrEqual(3);
    expect(count('clean')).toBeGreaterThan(active.length / 2);
    expect(active.length - worst.size).toBeGreaterThan(5);
    const flagged = [...worst].filter(([, v]) => v !== 'clean').map(([slug]) => slug);
    expect(flagged.filter((slug) => DEMO_SKILLS.includes(slug))).toEqual([]);
    const blocked = active.find((i) => worst.get(i.slug) === 'malicious')!;
    expect(trust.verifiedPublishers).not.toContain(blocked.publisher);
    expect(trust.verifiedPublishers.length).toBeGreaterThanOrEqual(3);
    for (const v of trust.verdicts) expect(active.find((i) => i.slug === v.slug)?.version).toBe(v.version);
  });

  it('gives every item a publisher, a release, a licence, an https repository and a download count', () => {
    for (const item of items) {
      expect(item).toMatchObject({
        publisher: expect.stringMatching(/\S/),
        version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
        license: expect.stringMatching(/^[A-Za-z0-9.-]+( OR [A-Za-z0-9.-]+)?$/),
        repositoryUrl: expect.stringMatching(/^https:\/\/github\.com\/[a-z0-9-]+\/[a-z0-9-]+$/),
        downloads: expect.any(Number),
      });
      expect(item.homepageUrl === null || /^https:\/\//.test(String(item.homepageUrl))).toBe(true);
    }
  });

  it('spreads downloads like a registry: most items little used, a few famous, no two alike at the top', () => {
    const downloads = items.map((i) => i.downloads as number).sort((a, b) => a - b);
    const median = downloads[downloads.length >> 1]!;
    expect(downloads[0]).toBeGreaterThanOrEqual(10);
    expect(median).toBeLessThan(100_000);
    expect(downloads.at(-1)!).toBeGreaterThan(1_000_000);
    expect(new Set(downloads.slice(-10)).size).toBe(10);
  });
});
