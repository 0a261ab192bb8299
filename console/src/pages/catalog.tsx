/**
 * The catalog: search as you type (debounced; the API's answer cache makes
 * each keystroke cheap), category and type facets with counts, tag filters,
 * the trust filters (verdicts shown, verified publishers only) with theirs,
 * sort, the "did you mean" suggestion as a link, pages, and "add to
 * collection" on every result. The query lives in the address, so a search
 * can be shared, reloaded and followed back.
 */
import { searchCatalog, type SearchQuery, type TrustChoice } from '../search';
import { useEffect, useState } from 'react';
import type { CatalogItem, Sort } from '../api';
import { AddToCollection, type Added } from '../components/add-to-collection';
import { ActiveTags, FacetGroup } from '../components/facets';
import { Status } from '../components/form';
import { Pager } from '../components/pagination';
import { ResultCard } from '../components/result-card';
import { Empty, LoadError, Loading } from '../components/states';
import { TrustFilters } from '../components/trust-filters';
import { plural } from '../format';
import { useDebounced, useLoad } from '../hooks';
import { Link, replaceSearch, useSearch } from '../router';

/** Relevance is the default (the API reads it as newest first when there is no query). */
const SORTS: ReadonlyArray<{ value: Sort; label: string }> = [
  { value: 'relevance', label: 'Relevance' },
  { value: 'popular', label: 'Most popular' },
  { value: 'newest', label: 'Newest' },
  { value: 'name', label: 'Name' },
];

function queryOf(params: URLSearchParams): SearchQuery {
  return {
    q: params.get('q') ?? undefined,
    category: params.get('category') ?? undefined,
    type: params.get('type') ?? undefined,
    tags: params.getAll('tag'),
    sort: (params.get('sort') as Sort | null) ?? undefined,
    page: Number(params.get('page') ?? '1') || 1,
    trust: (['clean', 'any'] as const).find((t) => t === params.get('trust')),
    verifiedPublisher: params.get('verifiedPublisher') === 'true',
  };
}

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
    if (typed !== (new URLSearchParams(window.location.search).get('q') ?? '')) change((p) => (typed ? p.set('q', typed) : p.delete('q')));
  }, [typed]);

  const key = params.toString();
  const result = useLoad(() => searchCatalog(query), key);
  const answer = result.data;
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
        <form role="search" className="search-bar" onSubmit={(e) => e.preventDefault()}>
          <div className="field grow">
            <label htmlFor="catalog-q">Search skills and plugins</label>
            <input
              id="catalog-q"
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              maxLength={200}
              placeholder="e.g. docker lint"
              autoComplete="off"
            />
          </div>
          <div className="field">
            <label htmlFor="catalog-sort">Sort by</label>
            <select
              id="catalog-sort"
              value={query.sort ?? 'relevance'}
              onChange={(e) => change((p) => (e.target.value !== 'relevance' ? p.set('sort', e.target.value) : p.delete('sort')))}
            >
              {SORTS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
        </form>
        {added && (
          <Status>
            {added.message} <Link to={added.page}>Open the collection</Link>
          </Status>
        )}
      </section>
      <div className="catalog">
        <aside className="card filters" aria-label="Filters">
          <h2>Filters</h2>
          <FacetGroup
            title="Category"
            values={answer?.facets?.category ?? []}
            active={query.category}
            onToggle={(v) => change((p) => (v ? p.set('category', v) : p.delete('category')))}
          />
          <FacetGroup
            title="Type"
            values={answer?.facets?.type ?? []}
            active={query.type}
            onToggle={(v) => change((p) => (v ? p.set('type', v) : p.delete('type')))}
          />
          <TrustFilters
            trust={query.trust}
            verifiedOnly={query.verifiedPublisher ?? false}
            trustFacet={answer?.facets?.trust}
            verifiedFacet={answer?.facets?.verifiedPublisher}
            onTrust={(v?: TrustChoice) => change((p) => (v ? p.set('trust', v) : p.delete('trust')))}
            onVerified={(on) => change((p) => (on ? p.set('verifiedPublisher', 'true') : p.delete('verifiedPublisher')))}
          />
          <ActiveTags
            tags={query.tags ?? []}
            onRemove={(tag) =>
              change((p) => {
                const rest = p.getAll('tag').filter((t) => t !== tag);
                p.delete('tag');
                for (const t of rest) p.append('tag', t);
              })
            }
          />
        </aside>
        <section className="card results" aria-labelledby="results-title" aria-busy={result.loading}>
          <h2 id="results-title" tabIndex={-1}>
            Results
          </h2>
          {answer?.suggestion && (
            <p className="suggestion">
              Did you mean <Link to={`/catalog?q=${encodeURIComponent(answer.suggestion.q)}`}>{answer.suggestion.q}</Link>? (
              {plural(answer.suggestion.total, 'result')})
            </p>
          )}
          {result.error && <LoadError message={result.error} onRetry={result.reload} />}
          {!answer && !result.error && <Loading what="the catalog" />}
          {answer && (
            <>
              <p role="status" className="result-count">
                {plural(answer.pagination.total, 'result')}
                {query.q ? ` for “${query.q}”` : ''}
              </p>
              {answer.skills.length === 0 ? (
                <Empty title="Nothing matches.">
                  <p>Try fewer words, another spelling, or remove a filter.</p>
                </Empty>
              ) : (
                <div className="result-list">
                  {answer.skills.map((item) => (
                    <ResultCard
                      key={item.id}
                      item={item}
                      onAdd={setAdding}
                      onTag={(tag) => change((p) => !p.getAll('tag').includes(tag) && p.append('tag', tag))}
                    />
                  ))}
                </div>
              )}
              <Pager pagination={answer.pagination} onPage={setPage} label="Result pages" />
            </>
          )}
        </section>
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
