/** Dates as a person reads them, in the browser's locale. */
export function when(iso: string | null, none = '—'): string {
  if (iso === null) return none;
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A day, without the time. */
export function day(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** 52000 → "52,000" (the browser's grouping). */
export function count(n: number): string {
  return n.toLocaleString();
}

/** "1 skill", "3 skills"; `many` for a word that does not just take an s ("entries"). */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${count(n)} ${n === 1 ? word : many}`;
}

/** "data-engineering" → "Data engineering". */
export function label(slug: string): string {
  const words = slug.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
