/** "Invite people", for a workspace's owners and admins: its pending invitations, loaded here, and new ones. */
import { client } from '../api';
import { useLoad } from '../hooks';
import { Invitations } from './invitations';
import { WhenLoaded } from './states';

export function InvitationsSection({ workspaceId }: { workspaceId: string }) {
  const loaded = useLoad(() => client.listWorkspaceInvitations(workspaceId), workspaceId);
  return (
    <section className="card" aria-labelledby="invitations-title">
      <h2 id="invitations-title">Invite people</h2>
      <p className="hint">
        An invitation is a link: whoever opens it signs in (or creates an account) and joins with the role you choose.
      </p>
      <WhenLoaded loaded={loaded} what="the invitations">
        {(d) => <Invitations workspaceId={workspaceId} pending={d} onChanged={() => void loaded.reload()} />}
      </WhenLoaded>
    </section>
  );
}
