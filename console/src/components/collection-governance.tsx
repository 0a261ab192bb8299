/**
 * A team collection against its workspace policy: how many entries break
 * it and how many drifted (as the API counts them), pin updates for whoever
 * edits the collection, and the lockfile to download.
 */
import type { Collection } from '../api';
import { client } from '../api';
import { plural } from '../format';
import { UpdatePins } from './update-pins';

export function CollectionGovernance({
  collection,
  canUpdate,
  onUpdated,
}: {
  collection: Collection;
  canUpdate: boolean;
  onUpdated(): void;
}) {
  const { compliance, drift, workspaceId } = collection;
  if (!workspaceId) return null;
  return (
    <section className="card" aria-labelledby="governance-title">
      <h2 id="governance-title">Policy and pins</h2>
      <ul className="summary" aria-label="Policy and drift summary">
        {compliance && (
          <li className={compliance.complies ? 'complies' : 'violates'}>
            {compliance.complies
              ? 'Every entry complies with the workspace policy.'
              : `${plural(compliance.violationCount, 'entry', 'entries')} ${compliance.violationCount === 1 ? 'breaks' : 'break'} the workspace policy.`}
          </li>
        )}
        {drift && (
          <li>{drift.count === 0 ? 'No entry has drifted.' : `${plural(drift.count, 'entry', 'entries')} drifted.`}</li>
        )}
      </ul>
      {canUpdate && <UpdatePins workspaceId={workspaceId} collectionId={collection.id} onUpdated={onUpdated} />}
      <p>
        <a href={client.collectionLockfileUrl(workspaceId, collection.id)} download>
          Download lockfile
        </a>{' '}
        <span className="hint">(JSON, each pinned version with its digest, to verify downloads against)</span>
      </p>
    </section>
  );
}
