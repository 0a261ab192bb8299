/** The catalog's results: the "did you mean" link, the count, a card per result, the pages. */
import type { CatalogItem } from '../api';
import { plural } from '../format';
import type { Loaded } from '../hooks';
import { Link } from '../router';
import { Pager } from './pagination';
import { ResultCard } from './result-card';
import { catalogLink, type searchCatalog, type SearchQuery } from '../catalog-query';
import { Empty, WhenLoaded } from './states';

type Answer = Awaited<ReturnType<typeof searchCatalog>>;

export function CatalogResults(props: {
  result: Loaded<Answer>;
  query: SearchQuery;
  onAdd(item: CatalogItem): void;
  onTag(tag: string): void;
  onPage(page: number): void;
}) {
  const { result, query } = props;
  const suggestion = result.data?.suggestion;
  return (
    <section className="card results" aria-labelledby="results-title" aria-busy={result.loading}>
      <h2 id="results-title" tabIndex={-1}>
        Results
      </h2>
      {suggestion && (
        <p className="suggestion">
          Did you mean <Link to={catalogLink({ q: suggestion.q })}>{suggestion.q}</Link>? (
          {plural(suggestion.total, 'result')})
        </p>
      )}
      <WhenLoaded loaded={result} what="the catalog">
        {(answer) => (
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
                  <ResultCard key={item.id} item={item} onAdd={props.onAdd} onTag={props.onTag} />
                ))}
              </div>
            )}
            <Pager pagination={answer.pagination} onPage={props.onPage} label="Result pages" />
          </>
        )}
      </WhenLoaded>
    </section>
  );
}
