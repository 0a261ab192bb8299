/** Name and description of a new collection, personal or team. */
import { useState, type FormEvent } from 'react';
import type { Collection } from '../api';
import { createCollection, type CollectionScope } from '../collection-scope';
import { ErrorMessage, Field, messageOf } from './form';

/** Name and description of a new collection; `onCreated` gets it. */
export function NewCollectionForm({ scope, onCreated, disabled }: { scope: CollectionScope; onCreated(c: Collection): void; disabled?: boolean }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const input = new FormData(form);
    setBusy(true);
    setError(undefined);
    try {
      const collection = await createCollection(scope, {
        name: String(input.get('name')).trim(),
        description: String(input.get('description') ?? ''),
      });
      form.reset();
      onCreated(collection);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} className="stacked new-collection">
      <Field label="Collection name" name="name" required maxLength={120} disabled={disabled} />
      <Field label="Description (optional)" name="description" maxLength={2000} disabled={disabled} />
      <ErrorMessage message={error} />
      <button type="submit" className="primary" disabled={busy || disabled}>
        {busy ? 'Creating…' : 'Create collection'}
      </button>
    </form>
  );
}
