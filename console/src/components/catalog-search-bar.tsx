/** The catalog's search box (searched as you type) and its sort. */
import type { Sort } from '../api';
import { SORTS } from '../catalog-query';

/** Relevance is the default (the API reads it as newest first when there is no query). */
const LABELS: Record<Sort, string> = {
  relevance: 'Relevance',
  popular: 'Most popular',
  newest: 'Newest',
  name: 'Name',
};

export function CatalogSearchBar(props: {
  text: string;
  onText(text: string): void;
  sort: Sort | undefined;
  onSort(sort: Sort | undefined): void;
}) {
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
        <select
          id="catalog-sort"
          value={props.sort ?? 'relevance'}
          onChange={(e) => props.onSort(e.target.value !== 'relevance' ? (e.target.value as Sort) : undefined)}
        >
          {SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {LABELS[sort]}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}
