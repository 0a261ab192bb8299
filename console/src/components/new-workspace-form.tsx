/** A new team workspace by its name; its creator owns it and lands on its page. */
import { useState, type FormEvent } from 'react';
import { client } from '../api';
import { navigate } from '../router';
import { ErrorMessage, Field, messageOf } from './form';

export function NewWorkspaceForm() {
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
