/** Register a webhook endpoint: its https address, the events it wants, a description. */
import { useState, type FormEvent } from 'react';
import { client, type CreatedWebhook, type WebhookEvent } from '../api';
import { WEBHOOK_EVENTS } from '../labels';
import { ErrorMessage, Field, messageOf } from './form';

export function NewWebhookForm({ workspaceId, onCreated }: { workspaceId: string; onCreated(created: CreatedWebhook): void }) {
  const [error, setError] = useState<string>();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const checked = form.getAll('events');
    const events: WebhookEvent[] = WEBHOOK_EVENTS.map((e) => e.event).filter((e) => checked.includes(e));
    const description = String(form.get('description') ?? '').trim();
    setError(undefined);
    try {
      const created = await client.createWebhook(workspaceId, { url: String(form.get('url')).trim(), events, ...(description ? { description } : {}) });
      formElement.reset();
      onCreated(created);
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return (
    <form onSubmit={submit} className="stacked" aria-label="New webhook endpoint">
      <Field label="Endpoint URL" name="url" type="url" required placeholder="https://hooks.example.com/skills" hint="HTTPS, on a public address." />
      <fieldset>
        <legend>Events</legend>
        {WEBHOOK_EVENTS.map(({ event, label }) => (
          <div className="check" key={event}>
            <input type="checkbox" id={`event-${event}`} name="events" value={event} defaultChecked />
            <label htmlFor={`event-${event}`}>{event}</label>
            <span className="hint">{label}</span>
          </div>
        ))}
      </fieldset>
      <Field label="Description" name="description" maxLength={500} />
      <ErrorMessage message={error} />
      <button type="submit" className="primary">
        Add endpoint
      </button>
    </form>
  );
}
