/**
 * "Update pins": a dry run lists what would move (and what is skipped, with
 * the reason), then "Apply" makes the same request for real. Nothing changes
 * before Apply.
 */
import { useState } from 'react';
import { client, type PinsUpdate } from '../api';
import type { Collection } from '../api';
import { plural } from '../format';
import { useAction } from '../hooks';
import { Outcome } from './form';

const SKIPPED: Record<string, string> = {
  removed: 'removed from the catalog',
  blocked: 'blocked (its latest release is malicious)',
  'no-allowed-release': 'no release the policy allows',
  'not-in-collection': 'not in this collection',
};

export function UpdatePins({
  workspaceId,
  collectionId,
  onUpdated,
}: {
  workspaceId: string;
  collectionId: string;
  onUpdated(): void;
}) {
  const [preview, setPreview] = useState<PinsUpdate<Collection>>();
  // applying names the previewed entries, so nothing moves that the preview did not list
  const pins = useAction(async (dryRun: boolean, slugs?: string[]) => {
    const answer = await client.updateCollectionPins(workspaceId, collectionId, {
      dryRun,
      ...(slugs ? { slugs } : {}),
    });
    if (dryRun) return setPreview(answer);
    setPreview(undefined);
    onUpdated();
    return `${plural(answer.changes.length, 'pin')} updated.`;
  });

  return (
    <div className="update-pins">
      <button type="button" onClick={() => pins.run(true)}>
        Preview pin updates
      </button>
      {preview && (
        <div className="preview" role="region" aria-label="Pin updates preview">
          {preview.changes.length === 0 ? (
            <p>Every pin is already on the latest allowed release.</p>
          ) : (
            <ul>
              {preview.changes.map((c) => (
                <li key={c.slug}>
                  <strong>{c.slug}</strong>: {c.from ? c.from.version : 'not pinned'} → {c.to.version}
                </li>
              ))}
            </ul>
          )}
          {preview.skipped.length > 0 && (
            <ul className="hint" aria-label="Skipped">
              {preview.skipped.map((s) => (
                <li key={s.slug}>
                  {s.slug} skipped: {SKIPPED[s.reason] ?? s.reason}
                </li>
              ))}
            </ul>
          )}
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={preview.changes.length === 0}
              onClick={() =>
                pins.run(
                  false,
                  preview.changes.map((c) => c.slug),
                )
              }
            >
              Apply {plural(preview.changes.length, 'update')}
            </button>
            <button type="button" onClick={() => setPreview(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <Outcome of={pins} />
    </div>
  );
}
