/**
 * `--vocabulary broad`: the worst case for search. Names and descriptions
 * use only BROAD_WORDS, and each item holds 4 or 5 distinct ones (2 in the
 * name, the rest in the description), so every word is in ≈ 4.5 / 30 = 15 %
 * of the catalog: no query is selective, every match list is long.
 */
import { capitalise, pick, rng } from './catalog-generator';
import { kebab, type ImportLine } from './import-line';
import { CATEGORIES } from './vocabulary';

/** 30 words of ≥ 5 letters (so each can be misspelt by the typo class), no two with the same stem or a common English stop word. */
export const BROAD_WORDS = [
  'parser',
  'render',
  'stream',
  'buffer',
  'socket',
  'schema',
  'bundle',
  'cluster',
  'widget',
  'logger',
  'router',
  'client',
  'plugin',
  'format',
  'matrix',
  'vector',
  'tensor',
  'canvas',
  'sensor',
  'ticket',
  'wallet',
  'ledger',
  'portal',
  'signal',
  'filter',
  'kernel',
  'module',
  'driver',
  'beacon',
  'gadget',
] as const;

/** `count` distinct words, drawn without replacement. */
function distinctWords(next: () => number, count: number): string[] {
  const pool: string[] = [...BROAD_WORDS];
  const out: string[] = [];
  for (let k = 0; k < count; k++) out.push(pool.splice(Math.floor(next() * pool.length), 1)[0] as string);
  return out;
}

/** Item `i` of the broad catalog: about 30 % plugins and 5 % drafts, as the generated catalog. */
export function broadCatalogItem(i: number): ImportLine {
  // a seed space of its own: item i here shares nothing with catalogItem(i)
  const next = rng(i * 104_729 + 31);
  const words = distinctWords(next, next() < 0.5 ? 4 : 5);
  const name = words.slice(0, 2).map(capitalise).join(' ');
  // the description repeats the name's words, as real descriptions do; that changes no word's share of items
  const rest = words.slice(2);
  const description = `${capitalise(rest.join(' '))} ${words.slice(0, 2).join(' ')}.`;
  const category = pick(next, CATEGORIES).slug;
  const plugin = next() < 0.3;
  return {
    slug: `${kebab(name)}-${i.toString(36)}`,
    name,
    description,
    type: plugin ? 'plugin' : 'skill',
    category,
    status: next() < 0.05 ? 'draft' : 'active',
    tags: [rest[0] as string],
  };
}

export function broadCatalog(items: number): ImportLine[] {
  return Array.from({ length: items }, (_, i) => broadCatalogItem(i));
}
