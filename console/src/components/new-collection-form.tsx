/** Name and description of a new collection, personal or team. */
import type { Collection } from '../api';
import { createCollection, type CollectionScope } from '../collection-scope';
import { useAction } from '../hooks';
import { ErrorMessage, Field, submitTo } from './form';

/** Name and description of a new collection; `onCreated` gets it. */
export function NewCollectionForm({
  scope,
  onCreated,
  disabled,
}: {
  scope: CollectionScope;
  onCreated(c: Collection): void;
  disabled?: boolean;
}) {
  const create = useAction(async (form: HTMLFormElement) => {
    const input = new FormData(form);
    const collection = await createCollection(scope, {
      name: String(input.get('name')).trim(),
      description: String(input.get('description') ?? ''),
    });
    form.reset();
    onCreated(collection);
  });
  return (
    <form onSubmit={submitTo(create.run)} className="stacked new-collection">
      <Field label="Collection name" name="name" required maxLength={120} disabled={disabled} />
      <Field label="Description (optional)" name="description" maxLength={2000} disabled={disabled} />
      <ErrorMessage message={create.error} />
      <button type="submit" className="primary" disabled={create.busy || disabled}>
        {create.busy ? 'Creating…' : 'Create collection'}
      </button>
    </form>
  );
}
