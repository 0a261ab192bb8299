/** One search result: name (to its page), what it is, who publishes it, its tags (each a filter) and "add to collection". */
import type { CatalogItem } from '../api';
import { count, label } from '../format';
import { Link } from '../router';
import { VerdictBadge, VerifiedMark } from './trust-badges';

export function ResultCard({
  item,
  onTag,
  onAdd,
}: {
  item: CatalogItem;
  onTag(tag: string): void;
  onAdd(item: CatalogItem): void;
}) {
  return (
    <article className="result" aria-labelledby={`result-${item.slug}`}>
      <div className="result-head">
        <h3 id={`result-${item.slug}`}>
          <Link to={`/catalog/${encodeURIComponent(item.slug)}`}>{item.name}</Link>
        </h3>
        <span className="result-badges">
          {item.verdict && <VerdictBadge verdict={item.verdict} of={item.name} />}
          <span className={`badge type-${item.type}`}>{item.type}</span>
        </span>
      </div>
      <p className="result-meta">
        {label(item.category)}
        {item.publisher && (
          <>
            {' '}
            · by {item.publisher} <VerifiedMark verified={item.publisherVerified} />
          </>
        )}
        {(item.latestVersion ?? item.version) && <> · v{item.latestVersion ?? item.version}</>} ·{' '}
        {count(item.downloads)} downloads
      </p>
      <p className="result-description">{item.description}</p>
      <div className="result-foot">
        <ul className="tags" aria-label="Tags">
          {item.tags.map((tag) => (
            <li key={tag}>
              <button type="button" className="tag" onClick={() => onTag(tag)} aria-label={`Filter by tag ${tag}`}>
                #{tag}
              </button>
            </li>
          ))}
        </ul>
        <button type="button" onClick={() => onAdd(item)}>
          Add to collection<span className="visually-hidden">: {item.name}</span>
        </button>
      </div>
    </article>
  );
}
