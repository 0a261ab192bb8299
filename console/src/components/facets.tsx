/** Facet filters beside the results: each value with its count, pressed when it filters; the active tags to remove. */
import type { FacetValue } from '../api';
import { count, label } from '../format';

export function FacetGroup({
  title,
  values,
  active,
  onToggle,
}: {
  title: string;
  /** undefined while no answer tells them (loading, or the search failed): nothing is said about them then */
  values: FacetValue[] | undefined;
  active: string | undefined;
  onToggle(value: string | undefined): void;
}) {
  // the active value stays on show, so it can be removed whatever the answer
  const known = values ?? [];
  const shown: Array<{ value: string; count?: number }> =
    active && !known.some((v) => v.value === active)
      ? [{ value: active, count: values ? 0 : undefined }, ...known]
      : known;
  return (
    <section className="facet" aria-labelledby={`facet-${title}`}>
      <h3 id={`facet-${title}`}>{title}</h3>
      {shown.length === 0 ? (
        values && <p className="hint">Nothing to filter by.</p>
      ) : (
        <ul>
          {shown.map((v) => {
            const on = v.value === active;
            return (
              <li key={v.value}>
                <button
                  type="button"
                  className="facet-value"
                  aria-pressed={on}
                  onClick={() => onToggle(on ? undefined : v.value)}
                >
                  <span>{label(v.value)}</span>
                  {v.count !== undefined && (
                    <span className="facet-count" aria-label={`${v.count} results`}>
                      {count(v.count)}
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export function ActiveTags({ tags, onRemove }: { tags: string[]; onRemove(tag: string): void }) {
  if (tags.length === 0) return null;
  return (
    <section className="facet" aria-labelledby="facet-tags">
      <h3 id="facet-tags">Tags (all required)</h3>
      <ul className="tags">
        {tags.map((tag) => (
          <li key={tag}>
            <button
              type="button"
              className="tag on"
              onClick={() => onRemove(tag)}
              aria-label={`Remove the tag filter ${tag}`}
            >
              #{tag} ×
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
