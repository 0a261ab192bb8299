/** One catalog item with every field: publisher, release, licence, links (opened safely), downloads, and "add to collection". */
import { useState } from 'react';
import { data, type CatalogItem } from '../data-api';
import { AddToCollection, type Added } from '../components/add-to-collection';
import { Status } from '../components/form';
import { LoadError, Loading } from '../components/states';
import { count, label, when } from '../format';
import { useLoad } from '../hooks';
import { Link } from '../router';

/** A link out of the console: a new tab that cannot reach back into this one, and sends no Referer. */
function External({ href, children }: { href: string; children: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

export function SkillPage({ slug }: { slug: string }) {
  const loaded = useLoad(() => data.skill(slug), slug);
  const [adding, setAdding] = useState<CatalogItem>();
  const [added, setAdded] = useState<Added>();
  const item = loaded.data?.skill;

  return (
    <section className="card" aria-labelledby="skill-title">
      <p className="crumbs">
        <Link to="/catalog">← Catalog</Link>
      </p>
      {loaded.error && (
        <>
          <h1 id="skill-title">Skill not available</h1>
          <LoadError message={loaded.error} onRetry={loaded.reload} />
        </>
      )}
      {!item && !loaded.error && <Loading what="the skill" />}
      {item && (
        <>
          <div className="title-row">
            <h1 id="skill-title">{item.name}</h1>
            <span className={`badge type-${item.type}`}>{item.type}</span>
            <button type="button" className="primary push" onClick={() => setAdding(item)}>
              Add to collection
            </button>
          </div>
          <p className="lead">{item.description || 'No description.'}</p>
          {added && (
            <Status>
              {added.message} <Link to={added.page}>Open the collection</Link>
            </Status>
          )}
          <dl className="facts">
            <dt>Slug</dt>
            <dd>
              <code>{item.slug}</code>
            </dd>
            <dt>Category</dt>
            <dd>
              <Link to={`/catalog?category=${encodeURIComponent(item.category)}`}>{label(item.category)}</Link>
            </dd>
            <dt>Publisher</dt>
            <dd>{item.publisher ?? '—'}</dd>
            <dt>Version</dt>
            <dd>{item.version ?? '—'}</dd>
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
                    <Link key={tag} className="tag" to={`/catalog?tag=${encodeURIComponent(tag)}`}>
                      #{tag}
                    </Link>
                  ))}
            </dd>
            <dt>Updated</dt>
            <dd>{when(item.updatedAt)}</dd>
          </dl>
        </>
      )}
      <AddToCollection
        item={adding}
        onClose={() => setAdding(undefined)}
        onAdded={(done) => {
          setAdding(undefined);
          setAdded(done);
        }}
      />
    </section>
  );
}
