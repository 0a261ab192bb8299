/**
 * The catalog: search as you type (debounced; the API's answer cache makes
 * each keystroke cheap), category and type facets with counts, tag filters,
 * the trust filters (verdicts shown, verified publishers only) with theirs,
 * sort, the "did you mean" suggestion as a link, pages, and "add to
 * collection" on every result. The query lives in the address, so a search
 * can be shared, reloaded and followed back.
 */
import { useEffect, useState } from 'react';
import { addTag, queryOf, searchCatalog, setParam } from '../catalog-query';
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

  /** A new query string: filters and sort go back to page 1. */
  const change = (edit: (p: URLSearchParams) => void) => {
    const next = new URLSearchParams(window.location.search);
    edit(next);
    next.delete('page');
    replaceSearch(next);
  };
  // the search box follows the address when a link (the suggestion) changes it
  useEffect(() => setText(params.get('q') ?? ''), [params.get('q')]);
  useEffect(() => {
    if (typed !== (new URLSearchParams(window.location.search).get('q') ?? '')) change((p) => setParam(p, 'q', typed));
  }, [typed]);

  const result = useLoad(() => searchCatalog(query), params.toString());
  const setPage = (page: number) => {
    const next = new URLSearchParams(window.location.search);
    next.set('page', String(page));
    replaceSearch(next);
    document.getElementById('results-title')?.focus();
  };

  return (
    <>
      <section className="card" aria-labelledby="catalog-title">
        <h1 id="catalog-title">Catalog</h1>
        <CatalogSearchBar text={text} onText={setText} sort={query.sort} onSort={(sort) => change((p) => setParam(p, 'sort', sort))} />
        {adding.notice}
      </section>
      <div className="catalog">
        <CatalogFilters query={query} facets={result.data?.facets} change={change} />
        <CatalogResults result={result} query={query} onAdd={adding.add} onTag={(tag) => change((p) => addTag(p, tag))} onPage={setPage} />
      </div>
      {adding.dialog}
    </>
  );
}
