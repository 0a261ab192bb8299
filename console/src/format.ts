/** Dates as a person reads them, in the browser's locale. */
export function when(iso: string | null, none = '—'): string {
  if (iso === null) return none;
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
