/**
 * One collection, personal or team: rename and describe it, its entries as
 * the API returns them, add and remove skills, delete it after a
 * confirmation. What a workspace role may not do is not offered.
 */
import { useState } from 'react';
import type { Collection, CollectionPatch } from '../api';
import { deleteCollection, getCollection, updateCollection, type CollectionScope } from '../collection-scope';
import { CollectionDetails } from '../components/collection-details';
import { CollectionGovernance } from '../components/collection-governance';
import { CollectionSkills } from '../components/collection-skills';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ErrorMessage, Status, messageOf } from '../components/form';
import { WhenLoaded } from '../components/states';
import { useLoad } from '../hooks';
import { withNotice } from '../messages';
import { Link, navigate } from '../router';
import type { CollectionRights } from '../roles';

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
      void loaded.reload();
    } catch (err) {
      setError(messageOf(err));
    }
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
        <WhenLoaded loaded={loaded} what="the collection" unavailable={<h1 id="collection-title">Collection not available</h1>}>
          {(c) => (
            <>
              <CollectionDetails collection={c} rights={rights} onSave={(body) => patch(body, 'Saved.')} onDelete={() => setConfirming(true)} />
              <ErrorMessage message={error} />
              {status && <Status>{status}</Status>}
            </>
          )}
        </WhenLoaded>
      </section>
      {collection && scope.kind === 'team' && (
        <CollectionGovernance collection={collection} canUpdate={rights.updatePins === true} onUpdated={() => void loaded.reload()} />
      )}
      {collection && <CollectionSkills collection={collection} personal={scope.kind === 'personal'} canEdit={rights.edit} patch={patch} />}
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
