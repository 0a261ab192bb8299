/** Personal collections: the list (each with its first skills), and a new one. */
import { useState } from 'react';
import { listCollections, type CollectionScope } from '../collection-scope';
import { CollectionCard } from '../components/collection-card';
import { Status } from '../components/form';
import { NewCollectionForm } from '../components/new-collection-form';
import { Pager } from '../components/pagination';
import { Empty, WhenLoaded } from '../components/states';
import { useLoad } from '../hooks';
import { noticeText } from '../messages';
import { Link, navigate, useSearch } from '../router';

export function CollectionsPage() {
  const scope: CollectionScope = { kind: 'personal' };
  const notice = noticeText(useSearch().get('done'));
  const [page, setPage] = useState(1);
  const loaded = useLoad(() => listCollections(scope, page), `personal/${page}`);
  const empty = (
    <Empty title="No collection yet.">
      <p>
        Create one below, or start from the <Link to="/catalog">catalog</Link>.
      </p>
    </Empty>
  );
  return (
    <>
      <section className="card" aria-labelledby="collections-title">
        <h1 id="collections-title">Your collections</h1>
        <p>
          Group public skills and your private ones; only you see these. Add skills from the catalog with “Add to
          collection”.
        </p>
        {notice && <Status>{notice}</Status>}
        <WhenLoaded loaded={loaded} what="your collections" isEmpty={(d) => d.collections.length === 0} empty={empty}>
          {(d) => (
            <>
              <ul className="collection-grid">
                {d.collections.map((c) => (
                  <CollectionCard key={c.id} collection={c} to={`/collections/${c.id}`} />
                ))}
              </ul>
              <Pager pagination={d.pagination} onPage={setPage} label="Collection pages" />
            </>
          )}
        </WhenLoaded>
      </section>
      <section className="card" aria-labelledby="new-collection-title">
        <h2 id="new-collection-title">New collection</h2>
        <NewCollectionForm scope={scope} onCreated={(c) => navigate(`/collections/${c.id}`)} />
      </section>
    </>
  );
}
