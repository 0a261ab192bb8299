/**
 * Writes standalone/data/sample-catalog.ndjson, the catalog `npm start` loads
 * on first start. Deterministic (seeded PRNG): running it again gives the
 * same file byte for byte, so the committed file can be checked against it.
 * Every item carries registry details (publisher, release, licence, links,
 * downloads) as a real catalog would, so `sort=popular`, the item fields and
 * popularity in ranking show something real.
 *
 *   npm run generate-sample -w @skills/standalone
 */
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
  text.toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

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
}

/** The licences publishers pick, the common ones most often (SPDX ids and one expression). */
const LICENSES = ['MIT', 'MIT', 'MIT', 'Apache-2.0', 'Apache-2.0', 'BSD-3-Clause', 'ISC', 'MPL-2.0', 'MIT OR Apache-2.0'];

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
function detailsOf(slug: string, category: string): Pick<SampleItem, 'publisher' | 'version' | 'license' | 'repositoryUrl' | 'homepageUrl' | 'downloads'> {
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
        ...detailsOf(slug, category.slug),
      });
    }
  }
  return items;
}

function main(): void {
  const items = generateSampleCatalog();
  const slugs = new Set(items.map((i) => i.slug));
  if (slugs.size !== items.length) throw new Error('duplicate slugs in the sample catalog');
  const target = join(__dirname, '..', '..', 'data', 'sample-catalog.ndjson');
  writeFileSync(target, items.map((i) => JSON.stringify(i)).join('\n') + '\n');
  const drafts = items.filter((i) => i.status === 'draft').length;
  const plugins = items.filter((i) => i.type === 'plugin').length;
  process.stdout.write(`${items.length} items (${plugins} plugins, ${drafts} drafts) → ${target}\n`);
}

if (require.main === module) main();
