/** A collection's "Skills" section: its entries, and (when the role edits) adding a public skill or, in a personal collection, a private one. */
import type { Collection, CollectionPatch } from '../api';
import { AddPrivateSkill, AddPublicSkill } from './add-skills';
import { EntryList } from './entry-list';

/** `patch` applies a change and shows `done` once it is saved. */
export function CollectionSkills(props: {
  collection: Collection;
  personal: boolean;
  canEdit: boolean;
  patch(body: CollectionPatch, done: string): void;
}) {
  const { patch } = props;
  return (
    <section className="card" aria-labelledby="entries-title">
      <h2 id="entries-title">Skills</h2>
      <EntryList
        entries={props.collection.skills}
        onRemove={props.canEdit ? (body, name) => patch(body, `Removed “${name}”.`) : undefined}
      />
      {props.canEdit && (
        <div className="add-grid">
          <AddPublicSkill onAdd={(body, name) => patch(body, `Added “${name}”.`)} />
          {props.personal && <AddPrivateSkill onAdd={(body, name) => patch(body, `Added “${name}”.`)} />}
        </div>
      )}
    </section>
  );
}
