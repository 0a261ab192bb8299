/** The API keys section: create (shown once), list with last use and expiry, revoke and roll with confirmation. */
import { useState } from 'react';
import { client, type Account, type NewApiKey } from '../api';
import { CreateKeyForm } from '../components/create-key-form';
import { KeyDialogs, type PendingKeyAction } from '../components/key-dialogs';
import { KeyTable } from '../components/key-table';
import { useRecentSignIn } from '../components/recent-sign-in';
import { ErrorMessage, Status, messageOf } from '../components/form';
import { NewKeyPanel } from '../components/new-key';
import { Empty, WhenLoaded } from '../components/states';
import { when } from '../format';
import { useLoad } from '../hooks';

export function ApiKeysPage({ account }: { account: Account }) {
  const loaded = useLoad(() => client.listOwnApiKeys(), 'keys');
  const [created, setCreated] = useState<NewApiKey>();
  const [pending, setPending] = useState<PendingKeyAction>();
  const [grace, setGrace] = useState(3600);
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState<string>();
  const { guard, dialog } = useRecentSignIn();

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
      await loaded.reload();
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
            maxLifetimeDays={loaded.data?.maxLifetimeDays}
            guard={guard}
            onCreated={(k) => {
              setCreated(k);
              void loaded.reload();
            }}
          />
        )}
      </section>
      <section className="card" aria-labelledby="key-list-title">
        <h2 id="key-list-title">Your keys</h2>
        <WhenLoaded loaded={loaded} what="your keys" isEmpty={(d) => d.apiKeys.length === 0} empty={<Empty title="No key yet." />}>
          {(d) => <KeyTable keys={d.apiKeys} onPending={(kind, key) => setPending({ kind, key })} />}
        </WhenLoaded>
        <ErrorMessage message={error} />
        {status && <Status>{status}</Status>}
      </section>
      {dialog}
      <KeyDialogs pending={pending} grace={grace} onGrace={setGrace} onConfirm={confirm} onCancel={() => setPending(undefined)} />
    </>
  );
}
