/** A workspace's collections, a page at a time, and a new one (disabled, with why, for a viewer). */
import { useState } from 'react';
import type { Workspace } from '../api';
import { listCollections } from '../collection-scope';
import { useLoad } from '../hooks';
import { navigate } from '../router';
import { canWrite } from '../roles';
import { CollectionCard } from './collection-card';
import { NewCollectionForm } from './new-collection-form';
import { Pager } from './pagination';
import { Empty, WhenLoaded } from './states';

export function TeamCollections({ workspace }: { workspace: Workspace }) {
  const scope = { kind: 'team' as const, workspaceId: workspace.id };
  const [page, setPage] = useState(1);
  const loaded = useLoad(() => listCollections(scope, page), `${workspace.id}/${page}`);
  const writer = canWrite(workspace.role);
  return (
    <section className="card" aria-labelledby="team-collections-title">
      <h2 id="team-collections-title">Team collections</h2>
      <WhenLoaded
        loaded={loaded}
        what="the team's collections"
        isEmpty={(d) => d.collections.length === 0}
        empty={<Empty title="No team collection yet." />}
      >
        {(d) => (
          <>
            <ul className="collection-grid">
              {d.collections.map((c) => (
                <CollectionCard key={c.id} collection={c} to={`/workspaces/${workspace.id}/collections/${c.id}`} />
              ))}
            </ul>
            <Pager pagination={d.pagination} onPage={setPage} label="Team collection pages" />
          </>
        )}
      </WhenLoaded>
      <h3>New team collection</h3>
      {!writer && (
        <p className="notice">
          As a viewer you read this workspace&apos;s collections; creating and changing them needs the member role or
          above.
        </p>
      )}
      <NewCollectionForm
        scope={scope}
        disabled={!writer}
        onCreated={(c) => navigate(`/workspaces/${workspace.id}/collections/${c.id}`)}
      />
    </section>
  );
}
