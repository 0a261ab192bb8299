/** The account's API keys as a table: name, prefix, scopes, dates, state, and "roll" and "revoke" on the active ones. */
import type { ApiKey } from '../api';
import { when } from '../format';

function stateOf(key: ApiKey): 'active' | 'revoked' | 'expired' {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return 'expired';
  return 'active';
}

function KeyRow({ apiKey: key, onRoll, onRevoke }: { apiKey: ApiKey; onRoll(): void; onRevoke(): void }) {
  const state = stateOf(key);
  const label = key.name ?? key.prefix;
  return (
    <tr>
      <th scope="row">{key.name ?? '—'}</th>
      <td>
        <code>{key.prefix}…</code>
      </td>
      <td>
        {key.scopes.join(', ')}
        {key.workspaceId && <span className="hint"> · a workspace's policy applies</span>}
      </td>
      <td>{when(key.createdAt)}</td>
      <td>{when(key.lastUsedAt, 'never')}</td>
      <td>{when(key.expiresAt, 'never')}</td>
      <td>
        <span className={`badge state-${state}`}>{state}</span>
      </td>
      <td className="row-actions">
        {state === 'active' && (
          <>
            <button type="button" onClick={onRoll}>
              Roll<span className="visually-hidden"> key {label}</span>
            </button>
            <button type="button" className="danger" onClick={onRevoke}>
              Revoke<span className="visually-hidden"> key {label}</span>
            </button>
          </>
        )}
      </td>
    </tr>
  );
}

export function KeyTable({ keys, onPending }: { keys: ApiKey[]; onPending(kind: 'revoke' | 'roll', key: ApiKey): void }) {
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">State</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <KeyRow key={key.id} apiKey={key} onRoll={() => onPending('roll', key)} onRevoke={() => onPending('revoke', key)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
