/** Every field of a catalog item: publisher (with its verification), latest version, licence, links (opened safely), downloads, tags. */
import type { CatalogItem } from '../api';
import { catalogLink } from '../catalog-query';
import { count, label, when } from '../format';
import { T } from '../messages';
import { Link } from '../router';
import { VerifiedMark } from './trust-badges';

/** A link out of the console: a new tab that cannot reach back into this one, and sends no Referer. */
function External({ href, children }: { href: string; children: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

export function SkillFacts({ item }: { item: CatalogItem }) {
  return (
    <dl className="facts">
      <dt>Slug</dt>
      <dd>
        <code>{item.slug}</code>
      </dd>
      <dt>Category</dt>
      <dd>
        <Link to={catalogLink({ category: item.category })}>{label(item.category)}</Link>
      </dd>
      <dt>Publisher</dt>
      <dd>
        {item.publisher ?? '—'} <VerifiedMark verified={item.publisherVerified} />
      </dd>
      <dt>Version</dt>
      <dd>
        {item.latestVersion ?? item.version ?? '—'}
        {item.latestVersion && <span className="hint"> ({T.latestVersion})</span>}
      </dd>
      <dt>Licence</dt>
      <dd>{item.license ?? '—'}</dd>
      <dt>Downloads</dt>
      <dd>{count(item.downloads)}</dd>
      <dt>Repository</dt>
      <dd>{item.repositoryUrl ? <External href={item.repositoryUrl}>{item.repositoryUrl}</External> : '—'}</dd>
      <dt>Homepage</dt>
      <dd>{item.homepageUrl ? <External href={item.homepageUrl}>{item.homepageUrl}</External> : '—'}</dd>
      <dt>Tags</dt>
      <dd>
        {item.tags.length === 0
          ? '—'
          : item.tags.map((tag) => (
              <Link key={tag} className="tag" to={catalogLink({ tags: [tag] })}>
                #{tag}
              </Link>
            ))}
      </dd>
      <dt>Updated</dt>
      <dd>{when(item.updatedAt)}</dd>
    </dl>
  );
}
