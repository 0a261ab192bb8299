/** The API keys section: create (shown once), list with last use and expiry, revoke and roll with confirmation. */
import { useCallback, useEffect, useState } from 'react';
import { client, type Account, type ApiKey, type NewApiKey } from '../api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CreateKeyForm } from '../components/create-key-form';
import { useRecentSignIn } from '../components/recent-sign-in';
import { ErrorMessage, Status, messageOf } from '../components/form';
import { NewKeyPanel } from '../components/new-key';
import { when } from '../format';

const GRACE = [
  { seconds: 0, label: 'None: the old key stops at once' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86400, label: '24 hours' },
];

type Pending = { kind: 'revoke' | 'roll'; key: ApiKey };

function stateOf(key: ApiKey): 'active' | 'revoked' | 'expired' {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return 'expired';
  return 'active';
}

export function ApiKeysPage({ account }: { account: Account }) {
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [created, setCreated] = useState<NewApiKey>();
  const [pending, setPending] = useState<Pending>();
  const [grace, setGrace] = useState(3600);
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState<string>();
  const [maxLifetimeDays, setMaxLifetimeDays] = useState<number | null>();
  const { guard, dialog } = useRecentSignIn();
  const load = useCallback(
    () =>
      client.listOwnApiKeys().then(
        (d) => {
          setKeys(d.apiKeys);
          setMaxLifetimeDays(d.maxLifetimeDays);
        },
        (err: unknown) => setError(messageOf(err)),
      ),
    [],
  );
  useEffect(() => {
    void load();
  }, [load]);

  async function confirm() {
    if (!pending) return;
    const { kind, key } = pending;
    setPending(undefined);
    setError(undefined);
    try {
      if (kind === 'revoke') {
        await client.revokeOwnApiKey(key.id);
        setStatus(`Key “${key.name ?? key.prefix}” revoked: every call with it now gets 401.`);
      } else {
        const rolled = await guard(() => client.rollOwnApiKey(key.id, grace));
        setCreated(rolled.apiKey);
        setStatus(grace === 0 ? 'Key rolled; the old one is revoked.' : `Key rolled; the old one works until ${when(rolled.previous.expiresAt)}.`);
      }
      await load();
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return (
    <>
      <section className="card" aria-labelledby="keys-title">
        <h1 id="keys-title">API keys</h1>
        <p>
          Keys call the API as your account (<code>Authorization: Bearer sk_live_…</code>), limited to their scopes.
          {account.plan === 'free' && ' Your plan (free) has no API access yet: calls with these keys get 403 until an operator changes it.'}
        </p>
        {created ? (
          <NewKeyPanel apiKey={created} onDone={() => setCreated(undefined)} />
        ) : (
          <CreateKeyForm
            maxLifetimeDays={maxLifetimeDays}
            guard={guard}
            onCreated={(k) => {
              setCreated(k);
              void load();
            }}
          />
        )}
      </section>
      <section className="card" aria-labelledby="key-list-title">
        <h2 id="key-list-title">Your keys</h2>
        {keys.length === 0 ? (
          <p>No key yet.</p>
        ) : (
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
                {keys.map((key) => {
                  const state = stateOf(key);
                  const label = key.name ?? key.prefix;
                  return (
                    <tr key={key.id}>
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
                            <button type="button" onClick={() => setPending({ kind: 'roll', key })}>
                              Roll<span className="visually-hidden"> key {label}</span>
                            </button>
                            <button type="button" className="danger" onClick={() => setPending({ kind: 'revoke', key })}>
                              Revoke<span className="visually-hidden"> key {label}</span>
                            </button>
                          </>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <ErrorMessage message={error} />
        {status && <Status>{status}</Status>}
      </section>
      {dialog}
      <ConfirmDialog
        open={pending?.kind === 'revoke'}
        title={`Revoke “${pending?.key.name ?? pending?.key.prefix ?? ''}”?`}
        confirmLabel="Revoke key"
        onConfirm={confirm}
        onCancel={() => setPending(undefined)}
      >
        <p>Every call made with this key will get 401, on every server within a second. This cannot be undone.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={pending?.kind === 'roll'}
        title={`Roll “${pending?.key.name ?? pending?.key.prefix ?? ''}”?`}
        confirmLabel="Roll key"
        onConfirm={confirm}
        onCancel={() => setPending(undefined)}
      >
        <p>You get a new key with the same name and scopes. How long should the old key keep working?</p>
        <fieldset>
          <legend>Grace period</legend>
          {GRACE.map((g) => (
            <div className="check" key={g.seconds}>
              <input type="radio" id={`grace-${g.seconds}`} name="grace" checked={grace === g.seconds} onChange={() => setGrace(g.seconds)} />
              <label htmlFor={`grace-${g.seconds}`}>{g.label}</label>
            </div>
          ))}
        </fieldset>
      </ConfirmDialog>
    </>
  );
}
