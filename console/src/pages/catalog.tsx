/**
 * The catalog: search as you type (debounced; the API's answer cache makes
 * each keystroke cheap), category and type facets with counts, tag filters,
 * the trust filters (verdicts shown, verified publishers only) with theirs,
 * sort, the "did you mean" suggestion as a link, pages, and "add to
 * collection" on every result. The query lives in the address, so a search
 * can be shared, reloaded and followed back.
 */
import { useEffect, useState } from 'react';
import { addressOf, queryOf, refine, searchCatalog, withTag, type SearchQuery } from '../catalog-query';
import { CatalogFilters } from '../components/catalog-filters';
import { CatalogResults } from '../components/catalog-results';
import { CatalogSearchBar } from '../components/catalog-search-bar';
import { useAddToCollection } from '../components/use-add-to-collection';
import { useDebounced, useLoad } from '../hooks';
import { replaceSearch, useSearch } from '../router';

export function CatalogPage() {
  const params = useSearch();
  const query = queryOf(params);
  const [text, setText] = useState(query.q ?? '');
  const typed = useDebounced(text, 250);
  const adding = useAddToCollection();

  // the address as it is now: the debounced text may land after a click changed it
  const current = () => queryOf(new URLSearchParams(window.location.search));
  /** A new query: the text, filters and sort go back to page 1. */
  const change = (edit: Partial<SearchQuery>) => replaceSearch(addressOf(refine(current(), edit)));
  // the search box follows the address when a link (the suggestion) changes it
  useEffect(() => setText(query.q ?? ''), [query.q]);
  useEffect(() => {
    if (typed !== (current().q ?? '')) change({ q: typed });
  }, [typed]);

  const result = useLoad(() => searchCatalog(query), addressOf(query).toString());
  const setPage = (page: number) => {
    replaceSearch(addressOf({ ...current(), page }));
    document.getElementById('results-title')?.focus();
  };

  return (
    <>
      <section className="card" aria-labelledby="catalog-title">
        <h1 id="catalog-title">Catalog</h1>
        <CatalogSearchBar text={text} onText={setText} sort={query.sort} onSort={(sort) => change({ sort })} />
        {adding.notice}
      </section>
      <div className="catalog">
        <CatalogFilters query={query} facets={result.data?.facets} change={change} />
        <CatalogResults
          result={result}
          query={query}
          onAdd={adding.add}
          onTag={(tag) => change({ tags: withTag(current().tags, tag) })}
          onPage={setPage}
        />
      </div>
      {adding.dialog}
    </>
  );
}
