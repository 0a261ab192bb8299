/**
 * One team workspace as the caller's role sees it: its collections (create
 * when the role writes), its members (roles and removal for owners and
 * admins), its policy (all read it; owners and admins change it), its
 * invitations and webhooks (owners and admins), and leaving it.
 */
import { listCollections } from '../collection-scope';
import { useState } from 'react';
import { client, type Workspace } from '../api';
import { Invitations } from '../components/invitations';
import { Members } from '../components/members';
import { PolicyEditor } from '../components/policy-editor';
import { Webhooks } from '../components/webhooks';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ErrorMessage, Status, messageOf } from '../components/form';
import { Pager } from '../components/pagination';
import { Empty, LoadError, Loading } from '../components/states';
import { plural } from '../format';
import { useLoad } from '../hooks';
import { noticeText, withNotice } from '../messages';
import { navigate, useSearch } from '../router';
import { ROLE_HELP, canGovern, canInvite, canWrite } from '../roles';
import { CollectionCard, NewCollectionForm } from './collections';

function TeamCollections({ workspace }: { workspace: Workspace }) {
  const scope = { kind: 'team' as const, workspaceId: workspace.id };
  const [page, setPage] = useState(1);
  const loaded = useLoad(() => listCollections(scope, page), `${workspace.id}/${page}`);
  const collections = loaded.data?.collections;
  const writer = canWrite(workspace.role);
  return (
    <section className="card" aria-labelledby="team-collections-title">
      <h2 id="team-collections-title">Team collections</h2>
      {loaded.error && <LoadError message={loaded.error} onRetry={loaded.reload} />}
      {!collections && !loaded.error && <Loading what="the team's collections" />}
      {collections && collections.length === 0 && <Empty title="No team collection yet." />}
      {collections && collections.length > 0 && (
        <ul className="collection-grid">
          {collections.map((c) => (
            <CollectionCard key={c.id} collection={c} to={`/workspaces/${workspace.id}/collections/${c.id}`} />
          ))}
        </ul>
      )}
      {loaded.data && <Pager pagination={loaded.data.pagination} onPage={setPage} label="Team collection pages" />}
      <h3>New team collection</h3>
      {!writer && <p className="notice">As a viewer you read this workspace&apos;s collections; creating and changing them needs the member role or above.</p>}
      <NewCollectionForm scope={scope} disabled={!writer} onCreated={(c) => navigate(`/workspaces/${workspace.id}/collections/${c.id}`)} />
    </section>
  );
}

export function WorkspacePage({ id, me }: { id: string; me: string }) {
  const search = useSearch();
  const created = search.get('created');
  const notice = noticeText(search.get('done'));
  const loaded = useLoad(() => Promise.all([client.getWorkspace(id), client.listWorkspaceMembersPage(id, { limit: 50 })]), id);
  const workspace = loaded.data?.[0];
  const manager = workspace !== undefined && canInvite(workspace.role);
  const invitations = useLoad(() => (manager ? client.listWorkspaceInvitations(id) : Promise.resolve([])), `${id}/${manager}`);
  const [leaving, setLeaving] = useState(false);
  const [error, setError] = useState<string>();

  const members = loaded.data?.[1].members ?? [];
  const lastOwner = workspace?.role === 'owner' && members.filter((m) => m.role === 'owner').length === 1;

  async function leave() {
    setLeaving(false);
    try {
      await client.removeWorkspaceMember(id, 'me');
      navigate(withNotice('/workspaces', 'workspace-left'));
    } catch (err) {
      setError(messageOf(err));
    }
  }

  if (!workspace) {
    return (
      <section className="card" aria-labelledby="workspace-title">
        <h1 id="workspace-title">Workspace</h1>
        {loaded.error ? <LoadError message={loaded.error} onRetry={loaded.reload} /> : <Loading what="the workspace" />}
      </section>
    );
  }
  return (
    <>
      <section className="card" aria-labelledby="workspace-title">
        <div className="title-row">
          <h1 id="workspace-title">{workspace.name}</h1>
          <span className={`badge role-${workspace.role}`}>{workspace.role}</span>
          <button type="button" className="push" disabled={lastOwner} onClick={() => setLeaving(true)} aria-describedby={lastOwner ? 'leave-help' : undefined}>
            Leave workspace
          </button>
        </div>
        <p className="hint">
          You are {workspace.role}: {ROLE_HELP[workspace.role]}. {plural(workspace.memberCount, 'member')}.
        </p>
        {lastOwner && (
          <p id="leave-help" className="hint">
            You are its only owner: make another member owner before leaving.
          </p>
        )}
        {created && <Status>Workspace created: you are its owner. Invite your team below.</Status>}
        {notice && <Status>{notice}</Status>}
        <ErrorMessage message={error} />
      </section>
      <TeamCollections workspace={workspace} />
      <PolicyEditor workspaceId={id} role={workspace.role} />
      <section className="card" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <Members workspaceId={id} me={me} myRole={workspace.role} members={members} onChanged={loaded.reload} />
      </section>
      {manager && (
        <section className="card" aria-labelledby="invitations-title">
          <h2 id="invitations-title">Invite people</h2>
          <p className="hint">An invitation is a link: whoever opens it signs in (or creates an account) and joins with the role you choose.</p>
          {invitations.error && <LoadError message={invitations.error} onRetry={invitations.reload} />}
          <Invitations workspaceId={id} pending={invitations.data ?? []} onChanged={invitations.reload} />
        </section>
      )}
      {canGovern(workspace.role) && <Webhooks workspaceId={id} />}
      <ConfirmDialog open={leaving} title={`Leave “${workspace.name}”?`} confirmLabel="Leave workspace" onConfirm={leave} onCancel={() => setLeaving(false)}>
        <p>You lose access to its collections at once; coming back takes a new invitation.</p>
      </ConfirmDialog>
    </>
  );
}
