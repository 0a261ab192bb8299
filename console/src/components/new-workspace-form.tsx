/** A new team workspace by its name; its creator owns it and lands on its page. */
import { client } from '../api';
import { useAction } from '../hooks';
import { navigate } from '../router';
import { ErrorMessage, Field, submitTo } from './form';

export function NewWorkspaceForm() {
  const create = useAction(async (form: HTMLFormElement) => {
    const workspace = await client.createWorkspace({ name: String(new FormData(form).get('name')).trim() });
    navigate(`/workspaces/${workspace.id}?created=1`);
  });
  return (
    <form onSubmit={submitTo(create.run)} className="inline-form">
      <Field label="Workspace name" name="name" required maxLength={120} placeholder="e.g. Platform team" />
      <button type="submit" className="primary" disabled={create.busy}>
        {create.busy ? 'Creating…' : 'Create workspace'}
      </button>
      <ErrorMessage message={create.error} />
    </form>
  );
}
