/**
 * One line of the admin NDJSON import, and the cleaning that makes any
 * catalog record one the import accepts. The limits copy
 * collections-service/src/http/admin.schemas.ts (importLineSchema): a line
 * over a limit fails the whole import request there, so the bench clips it
 * here instead, deterministically, rather than stop a 100k-item run.
 */

export type ItemStatus = 'active' | 'draft' | 'archived';

export interface ImportLine {
  slug: string;
  name: string;
  description: string;
  type: 'skill' | 'plugin';
  category: string;
  status: ItemStatus;
  tags: string[];
  /** the corpus' use count, when it has one (ranking blends it in) */
  downloads?: number;
}

/** importLineSchema's limits (characters as JavaScript counts them: UTF-16 code units, which is what Joi's max() reads). */
export const IMPORT_LIMITS = {
  slug: 100,
  name: 200,
  description: 5000,
  category: 100,
  tag: 50,
  tags: 20,
} as const;

const SLUG_PATTERN = /^[a-z0-9-]{1,100}$/;
const STATUSES: readonly ItemStatus[] = ['active', 'draft', 'archived'];

/** `s` cut to at most `max` code units, never between the two halves of a surrogate pair. */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const code = s.charCodeAt(max - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** lower-case words joined by single hyphens: what a slug, and the search API's `category` filter, accept */
export function kebab(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '') // the accents NFKD split off: "é" becomes "e", not "e-"
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/**
 * An import line from any parsed record, or undefined when nothing usable is
 * left (no name and no slug). `downloads` is kept when it is a count; other
 * unknown fields are dropped: the import refuses unknown keys. `fallbackSlug` names a
 * record whose slug is missing or cleans to nothing.
 */
export function cleanImportLine(record: unknown, fallbackSlug: string): ImportLine | undefined {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  const r = record as Record<string, unknown>;
  const rawSlug = text(r.slug);
  const name = clip(text(r.name).trim(), IMPORT_LIMITS.name).trim() || clip(rawSlug.trim(), IMPORT_LIMITS.name).trim();
  if (!name) return undefined;
  const slug = SLUG_PATTERN.test(rawSlug)
    ? rawSlug
    : clip(kebab(rawSlug) || kebab(name) || fallbackSlug, IMPORT_LIMITS.slug).replace(/-+$/, '');
  // A category the search API's filter cannot name (it takes slugs) could never be filtered on: store its slug form.
  const category = clip(kebab(text(r.category)), IMPORT_LIMITS.category).replace(/-+$/, '') || 'uncategorised';
  const tags = Array.isArray(r.tags)
    ? [...new Set(r.tags.map((t) => clip(text(t).trim(), IMPORT_LIMITS.tag).trim()).filter((t) => t.length > 0))].slice(
        0,
        IMPORT_LIMITS.tags,
      )
    : [];
  const status = STATUSES.find((s) => s === r.status) ?? 'active';
  return {
    slug: slug || fallbackSlug,
    name,
    description: clip(text(r.description), IMPORT_LIMITS.description),
    type: r.type === 'plugin' ? 'plugin' : 'skill',
    category,
    status,
    tags,
    ...(Number.isSafeInteger(r.downloads) && (r.downloads as number) >= 0 ? { downloads: r.downloads as number } : {}),
  };
}

/** Lines as one NDJSON import body. */
export function ndjsonBody(lines: readonly ImportLine[]): string {
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}
