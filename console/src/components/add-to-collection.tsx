/**
 * "Add to collection" from any catalog result: a modal with the caller's
 * personal collections, the team collections of the workspaces where its
 * role may write, or a new personal collection named on the spot.
 */
import { listCollections, createCollection, updateCollection, type CollectionScope } from '../collection-scope';
import { useEffect, useId, useRef, useState } from 'react';
import { client, type Collection } from '../api';
import { useAction, useLoad } from '../hooks';
import { canWrite } from '../roles';
import { ErrorMessage, Field, submitTo } from './form';

interface Choice {
  value: string;
  label: string;
  group: string;
  scope: CollectionScope;
  id: string;
}

export interface Added {
  message: string;
  /** the console page of the collection */
  page: string;
}

const NEW = 'new';

/** Every collection the caller may add to, grouped: its own first, then one group per workspace. */
async function choices(): Promise<Choice[]> {
  const personal = await listCollections({ kind: 'personal' });
  const own = personal.collections.map((c) => ({
    value: `p:${c.id}`,
    label: c.name,
    group: 'Your collections',
    scope: { kind: 'personal' } as const,
    id: c.id,
  }));
  const { workspaces } = await client.listWorkspacesPage({ limit: 50 });
  const team = await Promise.all(
    workspaces
      .filter((w) => canWrite(w.role))
      .map(async (w) => {
        const scope: CollectionScope = { kind: 'team', workspaceId: w.id };
        const { collections } = await listCollections(scope);
        return collections.map((c: Collection) => ({
          value: `t:${w.id}:${c.id}`,
          label: c.name,
          group: `${w.name} (team)`,
          scope,
          id: c.id,
        }));
      }),
  );
  return [...own, ...team.flat()];
}

const pageOf = (choice: Pick<Choice, 'scope' | 'id'>) =>
  choice.scope.kind === 'personal'
    ? `/collections/${choice.id}`
    : `/workspaces/${choice.scope.workspaceId}/collections/${choice.id}`;

export function AddToCollection({
  item,
  onAdded,
  onClose,
}: {
  item: { slug: string; name: string } | undefined;
  onAdded(added: Added): void;
  onClose(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // the choices are loaded anew at each opening: a collection made since is offered
  const [opening, setOpening] = useState(0);
  const loaded = useLoad(() => (item ? choices() : Promise.resolve(undefined)), String(opening));
  const options = loaded.loading || loaded.error ? undefined : loaded.data;
  const [picked, setPicked] = useState<string>();
  const selected = picked ?? options?.[0]?.value ?? NEW;
  const add = useAction(async (form: HTMLFormElement) => {
    if (!item) return;
    let target = options?.find((o) => o.value === selected);
    if (!target) {
      const name = String(new FormData(form).get('name') ?? '').trim();
      const collection = await createCollection({ kind: 'personal' }, { name });
      target = {
        value: `p:${collection.id}`,
        label: collection.name,
        group: '',
        scope: { kind: 'personal' },
        id: collection.id,
      };
    }
    const collection = await updateCollection(target.scope, target.id, { skillSlug: item.slug });
    onAdded({ message: `Added “${item.name}” to “${collection.name}”.`, page: pageOf(target) });
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (item && !dialog.open) {
      dialog.showModal();
      add.clear();
      setPicked(undefined);
      setOpening((n) => n + 1);
    }
    if (!item && dialog.open) dialog.close();
  }, [item]);

  const groups = [...new Set((options ?? []).map((o) => o.group))];
  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={onClose} className="add-dialog">
      <h2 id={titleId}>Add “{item?.name ?? ''}” to a collection</h2>
      <form onSubmit={submitTo(add.run)}>
        <div className="field">
          <label htmlFor={`${titleId}-target`}>Collection</label>
          <select
            id={`${titleId}-target`}
            value={selected}
            onChange={(e) => setPicked(e.target.value)}
            disabled={options === undefined}
          >
            {groups.map((group) => (
              <optgroup key={group} label={group}>
                {(options ?? [])
                  .filter((o) => o.group === group)
                  .map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
              </optgroup>
            ))}
            <option value={NEW}>A new personal collection…</option>
          </select>
          {options === undefined && !loaded.error && <p className="hint">Loading your collections…</p>}
        </div>
        {selected === NEW && (
          <Field label="Name of the new collection" name="name" required maxLength={120} autoFocus />
        )}
        <ErrorMessage message={add.error ?? loaded.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={add.busy}>
            {add.busy ? 'Adding…' : 'Add to collection'}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
