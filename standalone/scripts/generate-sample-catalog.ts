/**
 * Writes standalone/data/sample-catalog.ndjson, the catalog `npm start` loads
 * on first start. Deterministic (seeded PRNG): running it again gives the
 * same file byte for byte, so the committed file can be checked against it.
 * Every item carries registry details (publisher, release, licence, links,
 * downloads) as a real catalog would, so `sort=popular`, the item fields and
 * popularity in ranking show something real. It also writes
 * standalone/data/sample-trust.json: the verdicts a first start records as
 * two demo scanners and the publishers it verifies (docs/trust.md), so that
 * a newcomer sees clean, suspicious, unscanned and one blocked item.
 *
 *   npm run generate-sample -w @skills/standalone
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { actions, categories, publishers, type Action, type Subject } from './catalog-vocabulary';

const ITEMS_PER_CATEGORY = 32;
const DRAFT_RATE = 0.05;

/** mulberry32: tiny, fast and good enough for picking sample data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const slugify = (text: string): string =>
  text
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export interface SampleItem {
  slug: string;
  name: string;
  description: string;
  type: 'skill' | 'plugin';
  category: string;
  status: 'active' | 'draft';
  tags: string[];
  publisher: string;
  version: string;
  license: string;
  repositoryUrl: string;
  homepageUrl: string | null;
  downloads: number;
  /** oldest first; the last is `version` */
  releases: SampleRelease[];
}

export interface SampleRelease {
  version: string;
  publishedAt: string;
  /** the SHA-256 of `slug@version`: the sample has no artifacts to hash */
  digest: string;
  source: { repository: string; ref: string };
  yanked?: { reason: string };
}

/** What a first start records through the scanner and admin APIs. */
export interface SampleTrust {
  scanners: string[];
  verifiedPublishers: string[];
  verdicts: Array<{
    slug: string;
    version: string;
    scanner: string;
    verdict: 'clean' | 'suspicious' | 'malicious';
    summary: string;
  }>;
}

/** The licences publishers pick, the common ones most often (SPDX ids and one expression). */
const LICENSES = [
  'MIT',
  'MIT',
  'MIT',
  'Apache-2.0',
  'Apache-2.0',
  'BSD-3-Clause',
  'ISC',
  'MPL-2.0',
  'MIT OR Apache-2.0',
];

/** A seed from the slug (FNV-1a): an item's details do not move when other items change. */
function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * Registry details of one item, from its own PRNG: a publisher of its
 * category, a release (most past 1.0), a licence, a repository under the
 * publisher, a homepage for about half, and downloads spread over six orders
 * of magnitude (log-uniform, as real registries are: a few famous, most rare).
 */
function detailsOf(
  slug: string,
  category: string,
): Pick<SampleItem, 'publisher' | 'version' | 'license' | 'repositoryUrl' | 'homepageUrl' | 'downloads'> {
  const random = prng(seedOf(slug));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const publisher = pick(publishers[category] ?? publishers.default!);
  const owner = slugify(publisher);
  const major = random() < 0.2 ? 0 : 1 + Math.floor(random() * 4);
  return {
    publisher,
    version: `${major}.${Math.floor(random() * 12)}.${Math.floor(random() * 20)}`,
    license: pick(LICENSES),
    repositoryUrl: `https://github.com/${owner}/${slug}`,
    homepageUrl: random() < 0.5 ? `https://${owner}.dev/${slug}` : null,
    downloads: Math.floor(10 ** (1 + random() * 6)),
  };
}

type Triple = [number, number, number];

/** A release before `v`: an earlier patch, else an earlier minor, else an earlier major. */
function earlierThan([major, minor, patch]: Triple, random: () => number): Triple | undefined {
  if (patch > 0) return [major, minor, patch - 1 - Math.floor(random() * patch)];
  if (minor > 0) return [major, minor - 1, Math.floor(random() * 10)];
  if (major > 0) return [major - 1, Math.floor(random() * 10), Math.floor(random() * 10)];
  return undefined;
}

const DAY_MS = 86_400_000;
const LATEST_BEFORE = Date.parse('2026-11-01T09:00:00.000Z');

/**
 * One to four releases ending at the item's version, a week to three months
 * apart; one item in thirty has an earlier release yanked. From the slug's
 * own PRNG stream, so the other details do not move.
 */
function releasesOf(slug: string, version: string, repository: string): SampleRelease[] {
  const random = prng(seedOf(`${slug}#releases`));
  const versions: Triple[] = [version.split('.').map(Number) as Triple];
  const wanted = 1 + Math.floor(random() * 4);
  while (versions.length < wanted) {
    const earlier = earlierThan(versions[0] as Triple, random);
    if (!earlier) break;
    versions.unshift(earlier);
  }
  let at = LATEST_BEFORE - Math.floor(random() * 200) * DAY_MS;
  const dates: number[] = versions.map(() => 0);
  for (let i = versions.length - 1; i >= 0; i -= 1) {
    dates[i] = at;
    at -= (7 + Math.floor(random() * 84)) * DAY_MS;
  }
  const yankOne = versions.length > 1 && random() < 1 / 30;
  return versions.map((v, i) => {
    const text = v.join('.');
    const release: SampleRelease = {
      version: text,
      publishedAt: new Date(dates[i]!).toISOString(),
      digest: `sha256:${createHash('sha256').update(`${slug}@${text}`).digest('hex')}`,
      source: { repository, ref: `v${text}` },
    };
    return yankOne && i === 0
      ? { ...release, yanked: { reason: 'published with a broken manifest; use a later release' } }
      : release;
  });
}

const SUSPICIOUS_FINDINGS = [
  'Runs a shell command assembled from model output without quoting it.',
  'Downloads a script from an unpinned URL during set-up.',
  'Reads environment variables it does not document, including tokens.',
  'Writes outside its working directory (~/.ssh).',
];
const MALICIOUS_FINDING =
  "A 'prerequisite' step fetches and runs a remote installer that reads browser credential stores and posts them to a paste site.";

/**
 * The trust a first start records: two scanners judge the latest release of
 * nine active items in ten (clean, but four suspicious and one malicious);
 * the rest stay unscanned. One publisher in three is verified, never the
 * malicious item's.
 */
export function sampleTrust(items: SampleItem[], seed = 20261127): SampleTrust {
  const random = prng(seed);
  const scanners = ['static-analysis', 'llm-review'];
  const active = items.filter((i) => i.status === 'active');
  const flagged = shuffle(active, random).slice(0, SUSPICIOUS_FINDINGS.length + 1);
  const malicious = flagged[0] as SampleItem;
  const verdicts: SampleTrust['verdicts'] = [];
  for (const item of active) {
    const version = item.version;
    const index = flagged.indexOf(item);
    if (index === 0) {
      verdicts.push({
        slug: item.slug,
        version,
        scanner: 'static-analysis',
        verdict: 'malicious',
        summary: MALICIOUS_FINDING,
      });
      verdicts.push({
        slug: item.slug,
        version,
        scanner: 'llm-review',
        verdict: 'suspicious',
        summary: 'Instructions ask the agent to disable its sandbox.',
      });
    } else if (index > 0) {
      verdicts.push({
        slug: item.slug,
        version,
        scanner: 'static-analysis',
        verdict: 'suspicious',
        summary: SUSPICIOUS_FINDINGS[index - 1] as string,
      });
      verdicts.push({ slug: item.slug, version, scanner: 'llm-review', verdict: 'clean', summary: 'No finding.' });
    } else if (random() < 0.9) {
      for (const scanner of scanners)
        verdicts.push({ slug: item.slug, version, scanner, verdict: 'clean', summary: 'No finding.' });
    }
  }
  const publishers = [...new Set(items.map((i) => i.publisher))].sort();
  const verifiedPublishers = publishers.filter((p, i) => i % 3 === 0 && p !== malicious.publisher);
  return { scanners, verifiedPublishers, verdicts };
}

export function generateSampleCatalog(seed = 20260101): SampleItem[] {
  const random = prng(seed);
  const items: SampleItem[] = [];
  for (const category of categories) {
    const pairs: Array<[Subject, Action]> = [];
    for (const subject of category.subjects) for (const action of actions) pairs.push([subject, action]);
    for (const [subject, action] of shuffle(pairs, random).slice(0, ITEMS_PER_CATEGORY)) {
      const name = `${subject.name} ${action.suffix}`;
      const closer = random() < 0.6 ? category.closers[Math.floor(random() * category.closers.length)] : undefined;
      const slug = slugify(name);
      items.push({
        slug,
        name,
        description: closer ? `${action.describe(subject.what)} ${closer}` : action.describe(subject.what),
        type: action.type,
        category: category.slug,
        status: random() < DRAFT_RATE ? 'draft' : 'active',
        tags: [...category.tags, subject.tag, action.suffix.toLowerCase()],
        ...withReleases(slug, detailsOf(slug, category.slug)),
      });
    }
  }
  return items;
}

function withReleases<D extends { version: string; repositoryUrl: string }>(
  slug: string,
  details: D,
): D & { releases: SampleRelease[] } {
  return { ...details, releases: releasesOf(slug, details.version, details.repositoryUrl) };
}

function main(): void {
  const items = generateSampleCatalog();
  const slugs = new Set(items.map((i) => i.slug));
  if (slugs.size !== items.length) throw new Error('duplicate slugs in the sample catalog');
  const target = join(__dirname, '..', '..', 'data', 'sample-catalog.ndjson');
  writeFileSync(target, items.map((i) => JSON.stringify(i)).join('\n') + '\n');
  const trust = sampleTrust(items);
  writeFileSync(join(__dirname, '..', '..', 'data', 'sample-trust.json'), `${JSON.stringify(trust, null, 2)}\n`);
  const drafts = items.filter((i) => i.status === 'draft').length;
  const plugins = items.filter((i) => i.type === 'plugin').length;
  process.stdout.write(`${items.length} items (${plugins} plugins, ${drafts} drafts) → ${target}\n`);
}

if (require.main === module) main();
