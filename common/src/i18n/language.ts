/** The two languages of every message, and which one a request asked for. */
export type Language = 'en' | 'fr';

/**
 * Picks English or French from an Accept-Language header (RFC 9110 §12.5.4):
 * the highest q-value among `en*` / `fr*` wins; English when neither appears.
 */
export function negotiateLanguage(header: string | undefined): Language {
  if (!header) return 'en';
  let best: Language = 'en';
  let bestQ = -1;
  for (const part of header.split(',')) {
    const [rangeRaw, ...paramsRaw] = part.trim().split(';');
    const range = (rangeRaw ?? '').trim().toLowerCase();
    let q = 1;
    for (const p of paramsRaw) {
      const [k, v] = p.trim().split('=');
      if (k === 'q' && v !== undefined) q = Number.parseFloat(v);
    }
    if (!Number.isFinite(q) || q <= 0) continue;
    const lang: Language | undefined = range.startsWith('fr') ? 'fr' : range.startsWith('en') ? 'en' : undefined;
    if (lang && q > bestQ) {
      best = lang;
      bestQ = q;
    }
  }
  return best;
}
