/**
 * The entries of a collection as the API returns them, in the order added:
 * public skills (linked while active; a skill the catalog removed stays,
 * marked removed; a blocked one stays too, marked with its verdict and the
 * reason, so whoever holds it learns why) and private skills, each with
 * its pin, compliance and drift (entry-governance.tsx). Removing is offered
 * when allowed.
 */
import type { CollectionPatch, Entry } from '../api';
import { label } from '../format';
import { Link } from '../router';
import { T } from '../messages';
import { EntryGovernance } from './entry-governance';
import { Empty } from './states';
import { VerdictBadge } from './trust-badges';

const STATE: Record<string, string> = {
  deleted: 'removed from the catalog',
  archived: 'archived',
  draft: 'unpublished',
};

export function EntryList({
  entries,
  onRemove,
}: {
  entries: Entry[];
  onRemove?(patch: CollectionPatch, name: string): void;
}) {
  if (entries.length === 0) {
    return (
      <Empty title="No skills in this collection yet.">
        <p>Add some from the catalog, or below.</p>
      </Empty>
    );
  }
  return (
    <ul className="entries">
      {entries.map((entry) => {
        const key = entry.visibility === 'public' ? `p-${entry.slug}` : `x-${entry.id}`;
        const removed = entry.visibility === 'public' && entry.status !== 'active';
        return (
          <li key={key} className={removed ? 'entry removed' : 'entry'}>
            <div className="entry-main">
              <span className="entry-name">
                {entry.visibility === 'public' && !removed ? (
                  <Link to={`/catalog/${encodeURIComponent(entry.slug)}`}>{entry.name}</Link>
                ) : (
                  entry.name
                )}
              </span>
              {entry.visibility === 'private' ? (
                <span className="badge private">private</span>
              ) : (
                <span className={`badge type-${entry.type}`}>{entry.type}</span>
              )}
              {removed && <span className="badge state-revoked">{STATE[entry.status] ?? entry.status}</span>}
              {entry.visibility === 'public' && entry.verdict && entry.verdict !== 'clean' && (
                <VerdictBadge verdict={entry.verdict} />
              )}
            </div>
            <EntryGovernance entry={entry} />
            {entry.visibility === 'public' && entry.blocked && (
              <p className="entry-blocked" role="note">
                <strong>{T.blockedTitle}.</strong> {T.blockedReason} {entry.blockedReason}
              </p>
            )}
            <p className="entry-meta">
              {entry.visibility === 'public'
                ? [entry.category && label(entry.category), entry.publisher, entry.version && `v${entry.version}`]
                    .filter(Boolean)
                    .join(' · ') || entry.slug
                : entry.description || 'Your private skill'}
            </p>
            {onRemove && (
              <button
                type="button"
                className="danger small"
                onClick={() =>
                  onRemove(
                    entry.visibility === 'public'
                      ? { removeSkillSlug: entry.slug }
                      : { removePrivateSkillId: entry.id },
                    entry.name,
                  )
                }
              >
                Remove<span className="visually-hidden"> {entry.name}</span>
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
