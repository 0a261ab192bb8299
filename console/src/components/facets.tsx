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
  values: FacetValue[];
  active: string | undefined;
  onToggle(value: string | undefined): void;
}) {
  const shown = active && !values.some((v) => v.value === active) ? [{ value: active, count: 0 }, ...values] : values;
  return (
    <section className="facet" aria-labelledby={`facet-${title}`}>
      <h3 id={`facet-${title}`}>{title}</h3>
      {shown.length === 0 ? (
        <p className="hint">Nothing to filter by.</p>
      ) : (
        <ul>
          {shown.map((v) => {
            const on = v.value === active;
            return (
              <li key={v.value}>
                <button type="button" className="facet-value" aria-pressed={on} onClick={() => onToggle(on ? undefined : v.value)}>
                  <span>{label(v.value)}</span>
                  <span className="facet-count" aria-label={`${v.count} results`}>
                    {count(v.count)}
                  </span>
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
            <button type="button" className="tag on" onClick={() => onRemove(tag)} aria-label={`Remove the tag filter ${tag}`}>
              #{tag} ×
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
