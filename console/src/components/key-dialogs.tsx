/** The confirmations before a key is revoked or rolled; rolling asks how long the old key keeps working. */
import type { ApiKey } from '../api';
import { ConfirmDialog } from './confirm-dialog';

const GRACE = [
  { seconds: 0, label: 'None: the old key stops at once' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86400, label: '24 hours' },
];

export type PendingKeyAction = { kind: 'revoke' | 'roll'; key: ApiKey };

export function KeyDialogs(props: {
  pending: PendingKeyAction | undefined;
  grace: number;
  onGrace(seconds: number): void;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { pending, grace } = props;
  const label = pending?.key.name ?? pending?.key.prefix ?? '';
  return (
    <>
      <ConfirmDialog
        open={pending?.kind === 'revoke'}
        title={`Revoke “${label}”?`}
        confirmLabel="Revoke key"
        onConfirm={props.onConfirm}
        onCancel={props.onCancel}
      >
        <p>Every call made with this key will get 401, on every server within a second. This cannot be undone.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={pending?.kind === 'roll'}
        title={`Roll “${label}”?`}
        confirmLabel="Roll key"
        onConfirm={props.onConfirm}
        onCancel={props.onCancel}
      >
        <p>You get a new key with the same name and scopes. How long should the old key keep working?</p>
        <fieldset>
          <legend>Grace period</legend>
          {GRACE.map((g) => (
            <div className="check" key={g.seconds}>
              <input
                type="radio"
                id={`grace-${g.seconds}`}
                name="grace"
                checked={grace === g.seconds}
                onChange={() => props.onGrace(g.seconds)}
              />
              <label htmlFor={`grace-${g.seconds}`}>{g.label}</label>
            </div>
          ))}
        </fieldset>
      </ConfirmDialog>
    </>
  );
}
