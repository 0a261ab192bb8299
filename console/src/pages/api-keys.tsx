/** The API keys section: create (shown once), list with last use and expiry, revoke and roll with confirmation. */
import { useState } from 'react';
import { client, type Account, type NewApiKey } from '../api';
import { CreateKeyForm } from '../components/create-key-form';
import { KeyDialogs, type PendingKeyAction } from '../components/key-dialogs';
import { KeyTable } from '../components/key-table';
import { useRecentSignIn } from '../components/recent-sign-in';
import { Outcome } from '../components/form';
import { NewKeyPanel } from '../components/new-key';
import { Empty, WhenLoaded } from '../components/states';
import { when } from '../format';
import { useAction, useLoad } from '../hooks';

export function ApiKeysPage({ account }: { account: Account }) {
  const loaded = useLoad(() => client.listOwnApiKeys(), 'keys');
  const [created, setCreated] = useState<NewApiKey>();
  const [pending, setPending] = useState<PendingKeyAction>();
  const [grace, setGrace] = useState(3600);
  const { guard, dialog } = useRecentSignIn();
  const change = useAction(
    async ({ kind, key }: PendingKeyAction) => {
      if (kind === 'revoke') {
        await client.revokeOwnApiKey(key.id);
        await loaded.reload();
        return `Key “${key.name ?? key.prefix}” revoked: every call with it now gets 401.`;
      }
      const rolled = await guard(() => client.rollOwnApiKey(key.id, grace));
      setCreated(rolled.apiKey);
      await loaded.reload();
      return grace === 0
        ? 'Key rolled; the old one is revoked.'
        : `Key rolled; the old one works until ${when(rolled.previous.expiresAt)}.`;
    },
    { queue: true },
  );

  function confirm() {
    if (!pending) return;
    setPending(undefined);
    void change.run(pending);
  }

  return (
    <>
      <section className="card" aria-labelledby="keys-title">
        <h1 id="keys-title">API keys</h1>
        <p>
          Keys call the API as your account (<code>Authorization: Bearer sk_live_…</code>), limited to their scopes.
          {account.plan === 'free' &&
            ' Your plan (free) has no API access yet: calls with these keys get 403 until an operator changes it.'}
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
        <WhenLoaded
          loaded={loaded}
          what="your keys"
          isEmpty={(d) => d.apiKeys.length === 0}
          empty={<Empty title="No key yet." />}
        >
          {(d) => <KeyTable keys={d.apiKeys} onPending={(kind, key) => setPending({ kind, key })} />}
        </WhenLoaded>
        <Outcome of={change} />
      </section>
      {dialog}
      <KeyDialogs
        pending={pending}
        grace={grace}
        onGrace={setGrace}
        onConfirm={confirm}
        onCancel={() => setPending(undefined)}
      />
    </>
  );
}
