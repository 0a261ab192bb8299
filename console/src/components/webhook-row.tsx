/** One endpoint: its events and state (with why it was disabled), enable/disable, a test delivery, delete, its deliveries. */
import { useState } from 'react';
import { client, type Webhook } from '../api';
import { ConfirmDialog } from './confirm-dialog';
import { ErrorMessage, Status, messageOf } from './form';
import { WebhookDeliveries } from './webhook-deliveries';

export function WebhookRow({ workspaceId, webhook, onChanged }: { workspaceId: string; webhook: Webhook; onChanged(): void }) {
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<string>();

  async function act(action: () => Promise<unknown>, done: string, changed = true) {
    setError(undefined);
    setStatus(undefined);
    try {
      await action();
      setStatus(done);
      if (changed) onChanged();
    } catch (err) {
      setError(messageOf(err));
    }
  }

  const toggle = () =>
    act(() => client.updateWebhook(workspaceId, webhook.id, { enabled: !webhook.enabled }), webhook.enabled ? 'Endpoint disabled.' : 'Endpoint enabled.');
  const test = () => act(() => client.testWebhook(workspaceId, webhook.id), 'Test delivery queued: see the deliveries.', false);
  const remove = () => {
    setDeleting(false);
    void act(() => client.deleteWebhook(workspaceId, webhook.id), 'Endpoint deleted.');
  };

  return (
    <li className="webhook">
      <div className="entry-main">
        <span className="entry-name">{webhook.url}</span>
        <span className={`badge ${webhook.enabled ? 'state-active' : 'state-revoked'}`}>{webhook.enabled ? 'enabled' : 'disabled'}</span>
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
      <ErrorMessage message={error} />
      {status && <Status>{status}</Status>}
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
