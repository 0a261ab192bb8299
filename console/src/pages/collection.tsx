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
import { Outcome } from '../components/form';
import { WhenLoaded } from '../components/states';
import { useAction, useLoad } from '../hooks';
import { withNotice } from '../messages';
import { Link, navigate } from '../router';
import type { CollectionRights } from '../roles';

export function CollectionPage(props: {
  scope: CollectionScope;
  id: string;
  back: { to: string; label: string };
  rights(c: Collection): CollectionRights;
}) {
  const { scope, id } = props;
  const loaded = useLoad(() => getCollection(scope, id), `${JSON.stringify(scope)}/${id}`);
  const [confirming, setConfirming] = useState(false);
  const collection = loaded.data;
  const rights = collection ? props.rights(collection) : { edit: false, delete: false };
  // every change and the deletion speak on one line, under the details
  const act = useAction((write: () => Promise<string | void>) => write(), { queue: true });
  const patch = (body: CollectionPatch, done: string) =>
    act.run(async () => {
      await updateCollection(scope, id, body);
      void loaded.reload();
      return done;
    });
  const remove = () => {
    setConfirming(false);
    void act.run(async () => {
      await deleteCollection(scope, id);
      navigate(withNotice(props.back.to, 'collection-deleted'));
    });
  };

  return (
    <>
      <section className="card" aria-labelledby="collection-title">
        <p className="crumbs">
          <Link to={props.back.to}>← {props.back.label}</Link>
        </p>
        <WhenLoaded
          loaded={loaded}
          what="the collection"
          unavailable={<h1 id="collection-title">Collection not available</h1>}
        >
          {(c) => (
            <>
              <CollectionDetails
                collection={c}
                rights={rights}
                onSave={(body) => patch(body, 'Saved.')}
                onDelete={() => setConfirming(true)}
              />
              <Outcome of={act} />
            </>
          )}
        </WhenLoaded>
      </section>
      {collection && scope.kind === 'team' && (
        <CollectionGovernance
          collection={collection}
          canUpdate={rights.updatePins === true}
          onUpdated={() => void loaded.reload()}
        />
      )}
      {collection && (
        <CollectionSkills
          collection={collection}
          personal={scope.kind === 'personal'}
          canEdit={rights.edit}
          patch={patch}
        />
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
