/** Why an item is blocked, where its "add to collection" would be: someone holding it learns why it left search. */
import { T } from '../messages';

export function BlockedNotice({ reason }: { reason: string | null | undefined }) {
  return (
    <section className="blocked" aria-labelledby="blocked-title">
      <h2 id="blocked-title">
        <span aria-hidden="true">✕ </span>
        {T.blockedTitle}
      </h2>
      <p>{T.blockedBody}</p>
      {reason && (
        <p>
          <strong>{T.blockedReason}</strong> {reason}
        </p>
      )}
    </section>
  );
}
