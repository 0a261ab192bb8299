/** One endpoint: its events and state (with why it was disabled), enable/disable, a test delivery, delete, its deliveries. */
import { useState } from 'react';
import { client, type Webhook } from '../api';
import { useAction } from '../hooks';
import { ConfirmDialog } from './confirm-dialog';
import { Outcome } from './form';
import { WebhookDeliveries } from './webhook-deliveries';

export function WebhookRow({
  workspaceId,
  webhook,
  onChanged,
}: {
  workspaceId: string;
  webhook: Webhook;
  onChanged(): void;
}) {
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const act = useAction(
    async (write: () => Promise<unknown>, done: string, changed = true) => {
      await write();
      if (changed) onChanged();
      return done;
    },
    { queue: true },
  );

  const toggle = () =>
    act.run(
      () => client.updateWebhook(workspaceId, webhook.id, { enabled: !webhook.enabled }),
      webhook.enabled ? 'Endpoint disabled.' : 'Endpoint enabled.',
    );
  const test = () =>
    act.run(() => client.testWebhook(workspaceId, webhook.id), 'Test delivery queued: see the deliveries.', false);
  const remove = () => {
    setDeleting(false);
    void act.run(() => client.deleteWebhook(workspaceId, webhook.id), 'Endpoint deleted.');
  };

  return (
    <li className="webhook">
      <div className="entry-main">
        <span className="entry-name">{webhook.url}</span>
        <span className={`badge ${webhook.enabled ? 'state-active' : 'state-revoked'}`}>
          {webhook.enabled ? 'enabled' : 'disabled'}
        </span>
      </div>
      <p className="entry-meta">
        {webhook.events.join(', ')}
        {webhook.description && ` · ${webhook.description}`}
      </p>
      {webhook.disabledReason && <p className="notice">Disabled: {webhook.disabledReason}</p>}
      <div className="row-actions">
        <button type="button" onClick={toggle}>
          {webhook.enabled ? 'Disable' : 'Enable'}
          <span className="visually-hidden"> {webhook.url}</span>
        </button>
        <button type="button" onClick={test}>
          Send test<span className="visually-hidden"> to {webhook.url}</span>
        </button>
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          Deliveries<span className="visually-hidden"> to {webhook.url}</span>
        </button>
        <button type="button" className="danger" onClick={() => setDeleting(true)}>
          Delete<span className="visually-hidden"> {webhook.url}</span>
        </button>
      </div>
      <Outcome of={act} />
      {open && <WebhookDeliveries workspaceId={workspaceId} webhookId={webhook.id} url={webhook.url} />}
      <ConfirmDialog
        open={deleting}
        title={`Delete the endpoint ${webhook.url}?`}
        confirmLabel="Delete endpoint"
        onConfirm={remove}
        onCancel={() => setDeleting(false)}
      >
        <p>Nothing more is sent to it; its delivery log goes with it.</p>
      </ConfirmDialog>
    </li>
  );
}
