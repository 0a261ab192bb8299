/**
 * How a collection's entries are shown (docs/governance.md): the pin of
 * every public entry, and on team collections its compliance (messages in
 * the request's language) and drift. Internal fields (the item id, the
 * pin's source) stay out.
 */
import { translate, type Language, type MessageKey } from '@skills/common';
import type { CollectionEntry, CollectionWithEntries, EntryPin, PublicEntry } from '../domain/model';

function pinView(pin: EntryPin | null) {
  return (
    pin && {
      version: pin.version,
      digest: pin.digest,
      verdict: pin.verdict,
      yanked: pin.yanked,
      pinnedVerdict: pin.pinnedVerdict,
    }
  );
}

function publicEntryView(entry: PublicEntry) {
  const { itemId: _internal, pin, compliance: _c, drift: _d, ...shown } = entry;
  return { ...shown, pin: pinView(pin) };
}

/** A personal collection's entry: the pin, no policy. */
export function personalEntryView(entry: CollectionEntry) {
  return entry.visibility === 'public' ? publicEntryView(entry) : entry;
}

/** A team collection's entry: the pin, its compliance under the policy and its drift. */
export function teamEntryView(entry: CollectionEntry, lang: Language) {
  if (entry.visibility !== 'public') return entry;
  const violations = (entry.compliance?.violations ?? []).map((v) => ({
    rule: v.rule,
    message: translate(`policy.${v.rule}` as MessageKey, lang, v.params),
  }));
  return {
    ...publicEntryView(entry),
    compliance: { complies: violations.length === 0, violations },
    drift: entry.drift ?? [],
  };
}

/** The collection's summary; a collection read without governance complies and has no drift. */
export function governanceView(c: CollectionWithEntries) {
  return c.governance ?? { compliance: { complies: true, violationCount: 0 }, drift: { count: 0 } };
}
