/** Team workspaces: those the account belongs to, with its role in each, and a new one (its creator owns it). */
import { client, type Workspace } from '../api';
import { Status } from '../components/form';
import { NewWorkspaceForm } from '../components/new-workspace-form';
import { Empty, WhenLoaded } from '../components/states';
import { plural } from '../format';
import { useLoad } from '../hooks';
import { noticeText } from '../messages';
import { Link, useSearch } from '../router';
import { ROLE_HELP } from '../roles';

/** A workspace in the list: its name (to its page), the account's role there and what it allows, its size. */
function WorkspaceCard({ workspace: w }: { workspace: Workspace }) {
  return (
    <li className="collection-card">
      <h3>
        <Link to={`/workspaces/${w.id}`}>{w.name}</Link>
      </h3>
      <p>
        <span className={`badge role-${w.role}`}>{w.role}</span> <span className="hint">{ROLE_HELP[w.role]}</span>
      </p>
      <p className="hint">{plural(w.memberCount, 'member')}</p>
    </li>
  );
}

export function WorkspacesPage() {
  const notice = noticeText(useSearch().get('done'));
  const loaded = useLoad(() => client.listWorkspacesPage({ limit: 50 }), 'workspaces');
  return (
    <>
      <section className="card" aria-labelledby="workspaces-title">
        <h1 id="workspaces-title">Team workspaces</h1>
        <p>Share collections with your team. Owners and admins invite people by a link and set their roles.</p>
        {notice && <Status>{notice}</Status>}
        <WhenLoaded
          loaded={loaded}
          what="your workspaces"
          isEmpty={(d) => d.workspaces.length === 0}
          empty={
            <Empty title="You are in no workspace yet.">
              <p>Create one below, or open an invitation link someone sent you.</p>
            </Empty>
          }
        >
          {(d) => (
            <ul className="collection-grid">
              {d.workspaces.map((w) => (
                <WorkspaceCard key={w.id} workspace={w} />
              ))}
            </ul>
          )}
        </WhenLoaded>
      </section>
      <section className="card" aria-labelledby="new-workspace-title">
        <h2 id="new-workspace-title">New workspace</h2>
        <p className="hint">You will be its owner.</p>
        <NewWorkspaceForm />
      </section>
    </>
  );
}
