/**
 * The workspace's signed webhooks (owners and admins): the endpoints, a new
 * one with its signing secret shown this once, and each one's deliveries.
 */
import { useState } from 'react';
import { client, type CreatedWebhook } from '../api';
import { useLoad } from '../hooks';
import { NewWebhookForm } from './new-webhook';
import { Empty, WhenLoaded } from './states';
import { WebhookRow } from './webhook-row';

function NewSecret({ created, onDone }: { created: CreatedWebhook; onDone(): void }) {
  return (
    <div className="card new-key" tabIndex={-1} ref={(el) => el?.focus()} aria-labelledby="secret-title">
      <h3 id="secret-title">Signing secret of {created.webhook.url}</h3>
      <p>
        <strong>Copy it now:</strong> it is shown only once. Your receiver checks each delivery&apos;s{' '}
        <code>Skills-Webhook-Signature</code> with it.
      </p>
      <div className="secret">
        <code aria-label="The signing secret">{created.secret}</code>
      </div>
      <button type="button" className="primary" onClick={onDone}>
        I have saved it
      </button>
    </div>
  );
}

export function Webhooks({ workspaceId }: { workspaceId: string }) {
  const loaded = useLoad(() => client.listWebhooks(workspaceId), workspaceId);
  const [created, setCreated] = useState<CreatedWebhook>();
  return (
    <section className="card" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p className="hint">
        Signed HTTPS calls when a collection changes or drifts, a pinned release&apos;s verdict changes or the policy
        changes.
      </p>
      {created && <NewSecret created={created} onDone={() => setCreated(undefined)} />}
      <WhenLoaded
        loaded={loaded}
        what="the webhooks"
        isEmpty={(d) => d.length === 0}
        empty={<Empty title="No webhook endpoint yet." />}
      >
        {(webhooks) => (
          <ul className="entries">
            {webhooks.map((w) => (
              <WebhookRow key={w.id} workspaceId={workspaceId} webhook={w} onChanged={() => void loaded.reload()} />
            ))}
          </ul>
        )}
      </WhenLoaded>
      <h3>New endpoint</h3>
      <NewWebhookForm
        workspaceId={workspaceId}
        onCreated={(c) => {
          setCreated(c);
          void loaded.reload();
        }}
      />
    </section>
  );
}
