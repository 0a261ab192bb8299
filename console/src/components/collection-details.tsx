/** A collection's title and size, and its name and description, editable when the role allows, with "Save changes" and "Delete collection". */
import type { FormEvent } from 'react';
import type { Collection, CollectionPatch } from '../api';
import { plural, when } from '../format';
import type { CollectionRights } from '../roles';
import { Field } from './form';

export function CollectionDetails(props: {
  collection: Collection;
  rights: CollectionRights;
  onSave(patch: CollectionPatch): void;
  onDelete(): void;
}) {
  const { collection, rights } = props;
  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    props.onSave({ name: String(form.get('name')).trim(), description: String(form.get('description') ?? '') });
  }
  return (
    <>
      <h1 id="collection-title">{collection.name}</h1>
      <p className="hint">
        {plural(collection.skillCount, 'skill')} · updated {when(collection.updatedAt)}
      </p>
      {rights.why && <p className="notice">{rights.why}</p>}
      <form onSubmit={save} className="stacked" key={collection.updatedAt}>
        <Field
          label="Name"
          name="name"
          defaultValue={collection.name}
          required
          maxLength={120}
          disabled={!rights.edit}
        />
        <div className="field">
          <label htmlFor="collection-description">Description</label>
          <textarea
            id="collection-description"
            name="description"
            defaultValue={collection.description}
            maxLength={2000}
            rows={3}
            disabled={!rights.edit}
          />
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={!rights.edit}>
            Save changes
          </button>
          <button type="button" className="danger" disabled={!rights.delete} onClick={props.onDelete}>
            Delete collection
          </button>
        </div>
      </form>
    </>
  );
}
