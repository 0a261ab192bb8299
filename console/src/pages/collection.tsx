/**
 * One collection, personal or team: rename and describe it, its entries as
 * the API returns them, add and remove skills, delete it after a
 * confirmation. What a workspace role may not do is not offered.
 */
import { getCollection, updateCollection, deleteCollection, type CollectionScope } from '../collection-scope';
import { useState, type FormEvent } from 'react';
import type { Collection, CollectionPatch } from '../api';
import { AddPrivateSkill, AddPublicSkill } from '../components/add-skills';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CollectionGovernance } from '../components/collection-governance';
import { EntryList } from '../components/entry-list';
import { ErrorMessage, Field, Status, messageOf } from '../components/form';
import { LoadError, Loading } from '../components/states';
import { plural, when } from '../format';
import { useLoad } from '../hooks';
import { withNotice } from '../messages';
import { Link, navigate } from '../router';

export interface CollectionRights {
  edit: boolean;
  delete: boolean;
  /** team collections: move pins to the latest allowed releases */
  updatePins?: boolean;
  /** why the controls are off, shown instead of them */
  why?: string;
}

export function CollectionPage(props: { scope: CollectionScope; id: string; back: { to: string; label: string }; rights(c: Collection): CollectionRights }) {
  const { scope, id } = props;
  const loaded = useLoad(() => getCollection(scope, id), `${JSON.stringify(scope)}/${id}`);
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const collection = loaded.data;
  const rights = collection ? props.rights(collection) : { edit: false, delete: false };

  async function patch(body: CollectionPatch, done: string) {
    setError(undefined);
    setStatus(undefined);
    try {
      await updateCollection(scope, id, body);
      setStatus(done);
      loaded.reload();
    } catch (err) {
      setError(messageOf(err));
    }
  }

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void patch({ name: String(form.get('name')).trim(), description: String(form.get('description') ?? '') }, 'Saved.');
  }

  async function remove() {
    setConfirming(false);
    try {
      await deleteCollection(scope, id);
      navigate(withNotice(props.back.to, 'collection-deleted'));
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return (
    <>
      <section className="card" aria-labelledby="collection-title">
        <p className="crumbs">
          <Link to={props.back.to}>← {props.back.label}</Link>
        </p>
        {loaded.error && !collection && (
          <>
            <h1 id="collection-title">Collection not available</h1>
            <LoadError message={loaded.error} onRetry={loaded.reload} />
          </>
        )}
        {!collection && !loaded.error && <Loading what="the collection" />}
        {collection && (
          <>
            <h1 id="collection-title">{collection.name}</h1>
            <p className="hint">
              {plural(collection.skillCount, 'skill')} · updated {when(collection.updatedAt)}
            </p>
            {rights.why && <p className="notice">{rights.why}</p>}
            <form onSubmit={save} className="stacked" key={collection.updatedAt}>
              <Field label="Name" name="name" defaultValue={collection.name} required maxLength={120} disabled={!rights.edit} />
              <div className="field">
                <label htmlFor="collection-description">Description</label>
                <textarea
                  id="collection-description"
                  name="description"
                  defaultValue={collection.description}
                  maxLength={2000}
                  rows={3}
                  disabled={!rights.edit}
                />
              </div>
              <div className="actions">
                <button type="submit" className="primary" disabled={!rights.edit}>
                  Save changes
                </button>
                <button type="button" className="danger" disabled={!rights.delete} onClick={() => setConfirming(true)}>
                  Delete collection
                </button>
              </div>
            </form>
            <ErrorMessage message={error} />
            {status && <Status>{status}</Status>}
          </>
        )}
      </section>
      {collection && scope.kind === 'team' && <CollectionGovernance collection={collection} canUpdate={rights.updatePins === true} onUpdated={loaded.reload} />}
      {collection && (
        <section className="card" aria-labelledby="entries-title">
          <h2 id="entries-title">Skills</h2>
          <EntryList entries={collection.skills} onRemove={rights.edit ? (body, name) => patch(body, `Removed “${name}”.`) : undefined} />
          {rights.edit && (
            <div className="add-grid">
              <AddPublicSkill onAdd={(body, name) => patch(body, `Added “${name}”.`)} />
              {scope.kind === 'personal' && <AddPrivateSkill onAdd={(body, name) => patch(body, `Added “${name}”.`)} />}
            </div>
          )}
        </section>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Delete “${collection?.name ?? ''}”?`}
        confirmLabel="Delete collection"
        onConfirm={remove}
        onCancel={() => setConfirming(false)}
      >
        <p>The collection goes away; the skills it lists stay in the catalog. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
