/**
 * One team workspace as the caller's role sees it: its collections (create
 * when the role writes), its members (roles and removal for owners and
 * admins), its policy (all read it; owners and admins change it), its
 * invitations and webhooks (owners and admins), and leaving it.
 */
import { useState } from 'react';
import { client } from '../api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { InvitationsSection } from '../components/invitations-section';
import { Members } from '../components/members';
import { PolicyEditor } from '../components/policy-editor';
import { WhenLoaded } from '../components/states';
import { TeamCollections } from '../components/team-collections';
import { Webhooks } from '../components/webhooks';
import { WorkspaceHeader } from '../components/workspace-header';
import { useAction, useLoad } from '../hooks';
import { noticeText, withNotice } from '../messages';
import { navigate, useSearch } from '../router';
import { canGovern, canInvite } from '../roles';

export function WorkspacePage({ id, me }: { id: string; me: string }) {
  const search = useSearch();
  const loaded = useLoad(
    () => Promise.all([client.getWorkspace(id), client.listWorkspaceMembersPage(id, { limit: 50 })]),
    id,
  );
  const [leaving, setLeaving] = useState(false);
  const leave = useAction(async () => {
    await client.removeWorkspaceMember(id, 'me');
    navigate(withNotice('/workspaces', 'workspace-left'));
  });

  const workspace = loaded.data?.[0];
  if (!workspace) {
    return (
      <section className="card" aria-labelledby="workspace-title">
        <h1 id="workspace-title">Workspace</h1>
        <WhenLoaded loaded={loaded} what="the workspace">
          {() => null}
        </WhenLoaded>
      </section>
    );
  }
  const members = loaded.data?.[1].members ?? [];
  const lastOwner = workspace.role === 'owner' && members.filter((m) => m.role === 'owner').length === 1;
  return (
    <>
      <WorkspaceHeader
        workspace={workspace}
        lastOwner={lastOwner}
        onLeave={() => setLeaving(true)}
        created={search.get('created') !== null}
        notice={noticeText(search.get('done'))}
        error={leave.error ?? loaded.error}
      />
      <TeamCollections workspace={workspace} />
      <PolicyEditor workspaceId={id} role={workspace.role} />
      <section className="card" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <Members
          workspaceId={id}
          me={me}
          myRole={workspace.role}
          members={members}
          onChanged={() => void loaded.reload()}
        />
      </section>
      {canInvite(workspace.role) && <InvitationsSection workspaceId={id} />}
      {canGovern(workspace.role) && <Webhooks workspaceId={id} />}
      <ConfirmDialog
        open={leaving}
        title={`Leave “${workspace.name}”?`}
        confirmLabel="Leave workspace"
        onConfirm={() => {
          setLeaving(false);
          void leave.run();
        }}
        onCancel={() => setLeaving(false)}
      >
        <p>You lose access to its collections at once; coming back takes a new invitation.</p>
      </ConfirmDialog>
    </>
  );
}
