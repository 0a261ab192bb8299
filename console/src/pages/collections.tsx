/** Personal collections: the list (each with its first skills), and a new one. */
import { listCollections, createCollection, type CollectionScope } from '../collection-scope';
import { useState, type FormEvent } from 'react';
import type { Collection } from '../api';
import { ErrorMessage, Field, Status, messageOf } from '../components/form';
import { Pager } from '../components/pagination';
import { Empty, LoadError, Loading } from '../components/states';
import { plural } from '../format';
import { useLoad } from '../hooks';
import { noticeText } from '../messages';
import { Link, navigate, useSearch } from '../router';

/** A collection in a list: its name (to its page), description, size and first skills. */
export function CollectionCard({ collection, to }: { collection: Collection; to: string }) {
  const more = collection.skillCount - collection.skills.length;
  return (
    <li className="collection-card">
      <h3>
        <Link to={to}>{collection.name}</Link>
      </h3>
      {collection.description && <p>{collection.description}</p>}
      <p className="hint">
        {plural(collection.skillCount, 'skill')}
        {collection.skills.length > 0 && `: ${collection.skills.map((s) => s.name).join(', ')}${more > 0 ? ` and ${more} more` : ''}`}
      </p>
    </li>
  );
}

/** Name and description of a new collection; `onCreated` gets it. */
export function NewCollectionForm({ scope, onCreated, disabled }: { scope: CollectionScope; onCreated(c: Collection): void; disabled?: boolean }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const input = new FormData(form);
    setBusy(true);
    setError(undefined);
    try {
      const collection = await createCollection(scope, {
        name: String(input.get('name')).trim(),
        description: String(input.get('description') ?? ''),
      });
      form.reset();
      onCreated(collection);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} className="stacked new-collection">
      <Field label="Collection name" name="name" required maxLength={120} disabled={disabled} />
      <Field label="Description (optional)" name="description" maxLength={2000} disabled={disabled} />
      <ErrorMessage message={error} />
      <button type="submit" className="primary" disabled={busy || disabled}>
        {busy ? 'Creating…' : 'Create collection'}
      </button>
    </form>
  );
}

export function CollectionsPage() {
  const scope: CollectionScope = { kind: 'personal' };
  const notice = noticeText(useSearch().get('done'));
  const [page, setPage] = useState(1);
  const loaded = useLoad(() => listCollections(scope, page), `personal/${page}`);
  const collections = loaded.data?.collections;
  return (
    <>
      <section className="card" aria-labelledby="collections-title">
        <h1 id="collections-title">Your collections</h1>
        <p>Group public skills and your private ones; only you see these. Add skills from the catalog with “Add to collection”.</p>
        {notice && <Status>{notice}</Status>}
        {loaded.error && <LoadError message={loaded.error} onRetry={loaded.reload} />}
        {!collections && !loaded.error && <Loading what="your collections" />}
        {collections && collections.length === 0 && (
          <Empty title="No collection yet.">
            <p>
              Create one below, or start from the <Link to="/catalog">catalog</Link>.
            </p>
          </Empty>
        )}
        {collections && collections.length > 0 && (
          <ul className="collection-grid">
            {collections.map((c) => (
              <CollectionCard key={c.id} collection={c} to={`/collections/${c.id}`} />
            ))}
          </ul>
        )}
        {loaded.data && <Pager pagination={loaded.data.pagination} onPage={setPage} label="Collection pages" />}
      </section>
      <section className="card" aria-labelledby="new-collection-title">
        <h2 id="new-collection-title">New collection</h2>
        <NewCollectionForm scope={scope} onCreated={(c) => navigate(`/collections/${c.id}`)} />
      </section>
    </>
  );
}
