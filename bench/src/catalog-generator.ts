/**
 * Deterministic benchmark catalog and query mix: the same --items gives the
 * same catalog and the same requests on every run, so runs compare.
 */
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

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
const kebab = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export interface ImportLine {
  slug: string;
  name: string;
  description: string;
  type: 'skill' | 'plugin';
  category: string;
  status: 'active' | 'draft';
  tags: string[];
}

/** Item `i` of the catalog: about 30 % plugins, 5 % drafts, 2–4 sentences. */
export function catalogItem(i: number): ImportLine {
  const next = rng(i * 7919 + 17);
  const category = pick(next, CATEGORIES);
  const subject = pick(next, category.subjects);
  const plugin = next() < 0.3;
  const role = pick(next, plugin ? PLUGIN_ROLES : SKILL_ROLES);
  const qualifier = next() < 0.6 ? `${pick(next, QUALIFIERS)} ` : '';
  const name = `${qualifier}${subject} ${role}`;
  const sentences = [`${capitalise(pick(next, VERBS))} ${subject.toLowerCase()} files and ${pick(next, VERBS)} the results for you.`];
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

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Lines `from` .. `to - 1` as one NDJSON body. */
export function ndjson(from: number, to: number): string {
  const lines: string[] = [];
  for (let i = from; i < to; i++) lines.push(JSON.stringify(catalogItem(i)));
  return `${lines.join('\n')}\n`;
}

/** A plausible misspelling: two neighbouring letters swapped in the middle. */
export function typo(word: string): string {
  if (word.length < 5) return `${word}x`;
  const k = Math.floor(word.length / 2);
  return word.slice(0, k - 1) + word[k] + word[k - 1] + word.slice(k + 1);
}

/**
 * The search mix (paths under /api/v1/skills), weighted like a search box:
 * mostly one or two words, some prefixes while typing, a few typos, filters
 * on a third, deep pages rarely.
 */
export function searchMix(count: number, seed = 42): string[] {
  const next = rng(seed);
  const paths: string[] = [];
  for (let n = 0; n < count; n++) {
    const category = pick(next, CATEGORIES);
    const subjectWords = pick(next, category.subjects).toLowerCase().split(' ');
    const word = pick(next, subjectWords);
    const role = pick(next, [...SKILL_ROLES, ...PLUGIN_ROLES]).toLowerCase();
    const params = new URLSearchParams();
    const kind = next();
    if (kind < 0.3) params.set('q', word);
    else if (kind < 0.55) params.set('q', `${word} ${role}`);
    else if (kind < 0.7) params.set('q', word.slice(0, Math.max(3, Math.ceil(word.length * 0.6))));
    else if (kind < 0.8) params.set('q', typo(word));
    else if (kind < 0.88) params.set('q', role);
    // else: browse without q
    const filter = next();
    if (filter < 0.2) params.set('category', category.slug);
    else if (filter < 0.3) params.set('type', next() < 0.7 ? 'skill' : 'plugin');
    const page = next();
    if (page < 0.08) params.set('page', String(2 + Math.floor(next() * 4)));
    else if (page < 0.1) {
      // deep pages: up to the 10,000-result window
      params.set('limit', '50');
      params.set('page', String(20 + Math.floor(next() * 181)));
    }
    paths.push(`/api/v1/skills?${params.toString()}`);
  }
  return paths;
}
