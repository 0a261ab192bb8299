/**
 * The catalog: search as you type (debounced; the API's answer cache makes
 * each keystroke cheap), category and type facets with counts, tag filters,
 * the trust filters (verdicts shown, verified publishers only) with theirs,
 * sort, the "did you mean" suggestion as a link, pages, and "add to
 * collection" on every result. The query lives in the address, so a search
 * can be shared, reloaded and followed back.
 */
import { useEffect, useState } from 'react';
import type { CatalogItem } from '../api';
import { addTag, queryOf, setParam } from '../catalog-query';
import { AddToCollection, type Added } from '../components/add-to-collection';
import { CatalogFilters } from '../components/catalog-filters';
import { CatalogResults } from '../components/catalog-results';
import { CatalogSearchBar } from '../components/catalog-search-bar';
import { Status } from '../components/form';
import { useDebounced, useLoad } from '../hooks';
import { Link, replaceSearch, useSearch } from '../router';
import { searchCatalog } from '../search';

export function CatalogPage() {
  const params = useSearch();
  const query = queryOf(params);
  const [text, setText] = useState(query.q ?? '');
  const typed = useDebounced(text, 250);
  const [adding, setAdding] = useState<CatalogItem>();
  const [added, setAdded] = useState<Added>();

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
        {added && (
          <Status>
            {added.message} <Link to={added.page}>Open the collection</Link>
          </Status>
        )}
      </section>
      <div className="catalog">
        <CatalogFilters query={query} facets={result.data?.facets} change={change} />
        <CatalogResults result={result} query={query} onAdd={setAdding} onTag={(tag) => change((p) => addTag(p, tag))} onPage={setPage} />
      </div>
      <AddToCollection
        item={adding}
        onClose={() => setAdding(undefined)}
        onAdded={(done) => {
          setAdding(undefined);
          setAdded(done);
        }}
      />
    </>
  );
}
