/** The account's API keys as a table: name, prefix, scopes, dates, state, and "roll" and "revoke" on the active ones. */
import type { ApiKey } from '../api';
import { when } from '../format';
import { TableHead } from './table-head';

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

export function KeyTable({
  keys,
  onPending,
}: {
  keys: ApiKey[];
  onPending(kind: 'revoke' | 'roll', key: ApiKey): void;
}) {
  return (
    <div className="table-wrap">
      <table>
        <TableHead columns={['Name', 'Key', 'Scopes', 'Created', 'Last used', 'Expires', 'State']} />
        <tbody>
          {keys.map((key) => (
            <KeyRow
              key={key.id}
              apiKey={key}
              onRoll={() => onPending('roll', key)}
              onRevoke={() => onPending('revoke', key)}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
