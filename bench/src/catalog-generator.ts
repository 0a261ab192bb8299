/**
 * Deterministic benchmark catalog: the same --items gives the same catalog
 * on every run, so runs compare. rng() also seeds the query mixes.
 */
import { kebab, type ImportLine } from './import-line';
import { CATEGORIES, PLUGIN_ROLES, QUALIFIERS, SENTENCES, SKILL_ROLES, TAG_POOL, VERBS } from './vocabulary';

/** mulberry32: tiny, seedable, good enough to spread words. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;

/** Item `i` of the catalog: about 30 % plugins, 5 % drafts, 2–4 sentences. */
export function catalogItem(i: number): ImportLine {
  const next = rng(i * 7919 + 17);
  const category = pick(next, CATEGORIES);
  const subject = pick(next, category.subjects);
  const plugin = next() < 0.3;
  const role = pick(next, plugin ? PLUGIN_ROLES : SKILL_ROLES);
  const qualifier = next() < 0.6 ? `${pick(next, QUALIFIERS)} ` : '';
  const name = `${qualifier}${subject} ${role}`;
  const sentences = [
    `${capitalise(pick(next, VERBS))} ${subject.toLowerCase()} files and ${pick(next, VERBS)} the results for you.`,
  ];
  const extra = 1 + Math.floor(next() * 3);
  for (let k = 0; k < extra; k++) sentences.push(pick(next, SENTENCES));
  const tags = [category.slug.split('-')[0] as string, kebab(subject).split('-')[0] as string, pick(next, TAG_POOL)];
  return {
    // The base-36 counter keeps slugs unique however the words repeat.
    slug: `${kebab(name)}-${i.toString(36)}`,
    name,
    description: sentences.join(' '),
    type: plugin ? 'plugin' : 'skill',
    category: category.slug,
    status: next() < 0.05 ? 'draft' : 'active',
    tags: [...new Set(tags)],
  };
}

export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The first `items` items of the generated catalog. */
export function generatedCatalog(items: number): ImportLine[] {
  return Array.from({ length: items }, (_, i) => catalogItem(i));
}
