/** A team collection, with the controls the caller's workspace role allows (roles.ts). */
import { client } from '../api';
import { WhenLoaded } from '../components/states';
import { useLoad } from '../hooks';
import { teamCollectionRights } from '../roles';
import { CollectionPage } from './collection';

export function TeamCollectionPage({ workspaceId, id, me }: { workspaceId: string; id: string; me: string }) {
  const loaded = useLoad(() => client.getWorkspace(workspaceId), workspaceId);
  const workspace = loaded.data;
  if (!workspace) {
    return (
      <section className="card" aria-labelledby="collection-title">
        <h1 id="collection-title">Team collection</h1>
        <WhenLoaded loaded={loaded} what="the collection">
          {() => null}
        </WhenLoaded>
      </section>
    );
  }
  const { role } = workspace;
  return (
    <CollectionPage
      scope={{ kind: 'team', workspaceId }}
      id={id}
      back={{ to: `/workspaces/${workspaceId}`, label: workspace.name }}
      rights={(c) => teamCollectionRights(role, me, c.createdBy)}
    />
  );
}
