/** Register a webhook endpoint: its https address, the events it wants, a description. */
import { client, type CreatedWebhook, type WebhookEvent } from '../api';
import { useAction } from '../hooks';
import { WEBHOOK_EVENTS } from '../labels';
import { ErrorMessage, Field, submitTo } from './form';

export function NewWebhookForm({
  workspaceId,
  onCreated,
}: {
  workspaceId: string;
  onCreated(created: CreatedWebhook): void;
}) {
  const create = useAction(async (formElement: HTMLFormElement) => {
    const form = new FormData(formElement);
    const checked = form.getAll('events');
    const events: WebhookEvent[] = WEBHOOK_EVENTS.map((e) => e.event).filter((e) => checked.includes(e));
    const description = String(form.get('description') ?? '').trim();
    const created = await client.createWebhook(workspaceId, {
      url: String(form.get('url')).trim(),
      events,
      ...(description ? { description } : {}),
    });
    formElement.reset();
    onCreated(created);
  });

  return (
    <form onSubmit={submitTo(create.run)} className="stacked" aria-label="New webhook endpoint">
      <Field
        label="Endpoint URL"
        name="url"
        type="url"
        required
        placeholder="https://hooks.example.com/skills"
        hint="HTTPS, on a public address."
      />
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
      <ErrorMessage message={create.error} />
      <button type="submit" className="primary">
        Add endpoint
      </button>
    </form>
  );
}
