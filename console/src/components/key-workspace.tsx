/** The workspace a new key is bound to (docs/governance.md): every search it makes then applies that workspace's policy. */
import { client } from '../api';
import { useLoad } from '../hooks';

/** A select named `workspaceId`: empty for no workspace. */
export function WorkspaceBinding() {
  const loaded = useLoad(() => client.listWorkspacesPage({ limit: 50 }), 'workspaces');
  return (
    <div className="field">
      <label htmlFor="key-workspace">Workspace policy</label>
      <select id="key-workspace" name="workspaceId" defaultValue="" aria-describedby="key-workspace-hint">
        <option value="">None: the whole catalog</option>
        {(loaded.data?.workspaces ?? []).map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
      <p id="key-workspace-hint" className="hint">
        A key bound to a workspace finds only what its policy allows.
      </p>
    </div>
  );
}
