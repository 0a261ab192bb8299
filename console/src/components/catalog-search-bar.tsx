/** The catalog's search box (searched as you type) and its sort. */
import type { Sort } from '../api';

/** Relevance is the default (the API reads it as newest first when there is no query). */
const SORTS: ReadonlyArray<{ value: Sort; label: string }> = [
  { value: 'relevance', label: 'Relevance' },
  { value: 'popular', label: 'Most popular' },
  { value: 'newest', label: 'Newest' },
  { value: 'name', label: 'Name' },
];

export function CatalogSearchBar(props: { text: string; onText(text: string): void; sort: Sort | undefined; onSort(sort: string | undefined): void }) {
  return (
    <form role="search" className="search-bar" onSubmit={(e) => e.preventDefault()}>
      <div className="field grow">
        <label htmlFor="catalog-q">Search skills and plugins</label>
        <input
          id="catalog-q"
          type="search"
          value={props.text}
          onChange={(e) => props.onText(e.target.value)}
          maxLength={200}
          placeholder="e.g. docker lint"
          autoComplete="off"
        />
      </div>
      <div className="field">
        <label htmlFor="catalog-sort">Sort by</label>
        <select id="catalog-sort" value={props.sort ?? 'relevance'} onChange={(e) => props.onSort(e.target.value !== 'relevance' ? e.target.value : undefined)}>
          {SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}
