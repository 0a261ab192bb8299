/**
 * What docs/governance.md adds to an entry: its pin, and on a team
 * collection whether it complies with the policy (each broken rule with the
 * API's own message) and each cause of drift. Told in words, not colour.
 */
import type { Entry } from '../api';
import type { DriftCause } from '../api';
import { T } from '../messages';

/** A drift cause as a person reads it. */
export function driftText(cause: DriftCause): string {
  switch (cause.kind) {
    case 'newer-release':
      return `Newer release ${cause.version}`;
    case 'yanked':
      return 'Pinned release yanked';
    case 'verdict-changed':
      return `Verdict changed: ${T.verdict[cause.from]} → ${T.verdict[cause.to]}`;
    case 'blocked':
      return 'Blocked';
    case 'removed':
      return 'Removed from the catalog';
  }
}

export function EntryGovernance({ entry }: { entry: Entry }) {
  if (entry.visibility !== 'public') return null;
  const { pin, compliance, drift = [] } = entry;
  return (
    <>
      <div className="entry-governance">
        {pin !== undefined && (
          <span className="badge pin" title={pin?.digest}>
            {pin ? `Pinned ${pin.version}` : 'Not pinned'}
          </span>
        )}
        {compliance && (
          <span className={`badge ${compliance.complies ? 'complies' : 'violates'}`}>
            <span aria-hidden="true">{compliance.complies ? '✓ ' : '✕ '}</span>
            {compliance.complies ? 'Complies' : 'Breaks the policy'}
          </span>
        )}
        {drift.map((cause) => (
          <span key={cause.kind} className="badge drift">
            <span aria-hidden="true">↻ </span>
            <span className="visually-hidden">Drift: </span>
            {driftText(cause)}
          </span>
        ))}
      </div>
      {compliance && compliance.violations.length > 0 && (
        <ul className="violations" aria-label={`Why ${entry.name} breaks the policy`}>
          {compliance.violations.map((v) => (
            <li key={v.rule}>{v.message}</li>
          ))}
        </ul>
      )}
    </>
  );
}
