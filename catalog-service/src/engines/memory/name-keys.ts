/**
 * The keys a document's name is matched by, without a string per document
 * where its name or slug already spells them. The exact key (the name's
 * words joined by one space, item-analysis.ts) is most often the name in
 * lower case, and the slug key (the slug's words) most often the slug with
 * spaces for its hyphens: such a key is read from the name or slug, letter
 * by letter, and only a key that differs is kept as a string. At 1,000,000
 * items this saves a string or two per item (~0.1 KB each).
 */

const HYPHEN = 45;
const SPACE = 32;

/** The code unit in ASCII lower case, or -1 outside ASCII (its lower case may not be one unit). */
function lowerAscii(c: number): number {
  if (c >= 65 && c <= 90) return c + 32;
  return c < 128 ? c : -1;
}

/** Whether `name` in lower case begins with `key`, for an ASCII name (false otherwise: such a name keeps its key). */
function lowerStartsWith(name: string, key: string): boolean {
  if (name.length < key.length) return false;
  for (let i = 0; i < key.length; i++) if (lowerAscii(name.charCodeAt(i)) !== key.charCodeAt(i)) return false;
  return true;
}

/** Whether `slug` with spaces for its hyphens begins with `key`. */
function unhyphenatedStartsWith(slug: string, key: string): boolean {
  if (slug.length < key.length) return false;
  for (let i = 0; i < key.length; i++) {
    const c = slug.charCodeAt(i);
    if ((c === HYPHEN ? SPACE : c) !== key.charCodeAt(i)) return false;
  }
  return true;
}

/** Whether every code unit of `text` is ASCII. */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 128) return false;
  return true;
}

/**
 * `a.toLowerCase()` against `b.toLowerCase()` in code-unit order (name sort),
 * without making either: ASCII letters are folded in place, and only a pair
 * that reaches a non-ASCII unit before differing is lowered whole (an ASCII
 * prefix lowers to itself, unit for unit, so the two agree).
 */
export function compareLowerCase(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = lowerAscii(a.charCodeAt(i));
    const y = lowerAscii(b.charCodeAt(i));
    if (x < 0 || y < 0) {
      const la = a.toLowerCase();
      const lb = b.toLowerCase();
      return la < lb ? -1 : la > lb ? 1 : 0;
    }
    if (x !== y) return x - y;
  }
  return a.length - b.length;
}

/** The name and slug keys of each document, by ordinal. */
export class NameKeys {
  /** the exact key where it is not the name in lower case (undefined: it is) */
  private readonly exactKeys: Array<string | undefined> = [];
  /** the slug key where it is not the slug with spaces for hyphens */
  private readonly slugKeys: Array<string | undefined> = [];

  /** `names` and `slugs` are the document store's columns, read as they grow. */
  constructor(
    private readonly names: readonly string[],
    private readonly slugs: readonly string[],
  ) {}

  /** Records the keys of `doc`, whose name and slug are already in the columns. */
  set(doc: number, exactKey: string, slugKey: string): void {
    const name = this.names[doc] as string;
    const slug = this.slugs[doc] as string;
    const nameSpellsIt = name.length === exactKey.length && isAscii(name) && lowerStartsWith(name, exactKey);
    this.exactKeys[doc] = nameSpellsIt ? undefined : exactKey;
    this.slugKeys[doc] = slug.length === slugKey.length && unhyphenatedStartsWith(slug, slugKey) ? undefined : slugKey;
  }

  /** The name's words joined by one space (a new string only when the name has capitals: typo runs ask this of many documents). */
  exactKeyOf(doc: number): string {
    const kept = this.exactKeys[doc];
    if (kept !== undefined) return kept;
    const name = this.names[doc] as string;
    for (let i = 0; i < name.length; i++) {
      const c = name.charCodeAt(i);
      if (c >= 65 && c <= 90) return name.toLowerCase();
    }
    return name;
  }

  /** The slug's words joined by one space (a new string only when the slug has hyphens). */
  slugKeyOf(doc: number): string {
    const kept = this.slugKeys[doc];
    if (kept !== undefined) return kept;
    const slug = this.slugs[doc] as string;
    return slug.includes('-') ? slug.replaceAll('-', ' ') : slug;
  }

  /** The exact key's length, without making it. */
  exactKeyLength(doc: number): number {
    return (this.exactKeys[doc] ?? (this.names[doc] as string)).length;
  }

  slugKeyLength(doc: number): number {
    return (this.slugKeys[doc] ?? (this.slugs[doc] as string)).length;
  }

  exactKeyStartsWith(doc: number, key: string): boolean {
    const kept = this.exactKeys[doc];
    return kept === undefined ? lowerStartsWith(this.names[doc] as string, key) : kept.startsWith(key);
  }

  exactKeyIs(doc: number, key: string): boolean {
    return this.exactKeyLength(doc) === key.length && this.exactKeyStartsWith(doc, key);
  }

  slugKeyIs(doc: number, key: string): boolean {
    const kept = this.slugKeys[doc];
    if (kept !== undefined) return kept === key;
    const slug = this.slugs[doc] as string;
    return slug.length === key.length && unhyphenatedStartsWith(slug, key);
  }
}
