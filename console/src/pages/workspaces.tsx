/** Team workspaces: those the account belongs to, with its role in each, and a new one (its creator owns it). */
import { useState, type FormEvent } from 'react';
import { client } from '../api';
import { ErrorMessage, Field, Status, messageOf } from '../components/form';
import { Empty, LoadError, Loading } from '../components/states';
import { plural } from '../format';
import { useLoad } from '../hooks';
import { noticeText } from '../messages';
import { Link, navigate, useSearch } from '../router';
import { ROLE_HELP } from '../roles';

function NewWorkspaceForm() {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name')).trim();
    setBusy(true);
    setError(undefined);
    try {
      const workspace = await client.createWorkspace({ name });
      navigate(`/workspaces/${workspace.id}?created=1`);
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} className="inline-form">
      <Field label="Workspace name" name="name" required maxLength={120} placeholder="e.g. Platform team" />
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Creating…' : 'Create workspace'}
      </button>
      <ErrorMessage message={error} />
    </form>
  );
}

export function WorkspacesPage() {
  const notice = noticeText(useSearch().get('done'));
  const loaded = useLoad(() => client.listWorkspacesPage({ limit: 50 }), 'workspaces');
  const workspaces = loaded.data?.workspaces;
  return (
    <>
      <section className="card" aria-labelledby="workspaces-title">
        <h1 id="workspaces-title">Team workspaces</h1>
        <p>Share collections with your team. Owners and admins invite people by a link and set their roles.</p>
        {notice && <Status>{notice}</Status>}
        {loaded.error && <LoadError message={loaded.error} onRetry={loaded.reload} />}
        {!workspaces && !loaded.error && <Loading what="your workspaces" />}
        {workspaces && workspaces.length === 0 && (
          <Empty title="You are in no workspace yet.">
            <p>Create one below, or open an invitation link someone sent you.</p>
          </Empty>
        )}
        {workspaces && workspaces.length > 0 && (
          <ul className="collection-grid">
            {workspaces.map((w) => (
              <li key={w.id} className="collection-card">
                <h3>
                  <Link to={`/workspaces/${w.id}`}>{w.name}</Link>
                </h3>
                <p>
                  <span className={`badge role-${w.role}`}>{w.role}</span> <span className="hint">{ROLE_HELP[w.role]}</span>
                </p>
                <p className="hint">{plural(w.memberCount, 'member')}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="new-workspace-title">
        <h2 id="new-workspace-title">New workspace</h2>
        <p className="hint">You will be its owner.</p>
        <NewWorkspaceForm />
      </section>
    </>
  );
}
