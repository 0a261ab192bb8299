/**
 * Writes standalone/data/sample-catalog.ndjson, the catalog `npm start` loads
 * on first start. Deterministic (seeded PRNG): running it again gives the
 * same file byte for byte, so the committed file can be checked against it.
 *
 *   npm run generate-sample -w @skills/standalone
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { actions, categories, type Action, type Subject } from './catalog-vocabulary';

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
      items.push({
        slug: slugify(name),
        name,
        description: closer ? `${action.describe(subject.what)} ${closer}` : action.describe(subject.what),
        type: action.type,
        category: category.slug,
        status: random() < DRAFT_RATE ? 'draft' : 'active',
        tags: [...category.tags, subject.tag, action.suffix.toLowerCase()],
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
