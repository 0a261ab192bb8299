/**
 * "Report" on an item page: a modal with the reason (the API's fixed list)
 * and an optional text; the API's own refusal (400, or 429 with the wait)
 * shown in it, and the thanks outside once sent. Focus moves into the
 * dialog and returns to the opener (the native <dialog>).
 */
import { useEffect, useId, useRef, useState } from 'react';
import { client } from '../api';
import { useAction } from '../hooks';
import { T, refusalOf, type ReportReason } from '../messages';
import { ErrorMessage, submitTo } from './form';

const REASONS = Object.keys(T.reasons) as ReportReason[];
const MAX_TEXT = 2000;

export function ReportDialog({
  item,
  open,
  onClose,
  onSent,
}: {
  item: { slug: string; name: string };
  open: boolean;
  onClose(): void;
  onSent(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [reason, setReason] = useState<ReportReason>('malware');
  const [text, setText] = useState('');
  const send = useAction(
    async () => {
      await client.reportSkill(item.slug, { reason, text });
      setText('');
      onSent();
    },
    { describe: refusalOf },
  );

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      send.clear();
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog ref={ref} aria-labelledby={`${id}-title`} aria-describedby={`${id}-intro`} onCancel={onClose}>
      <h2 id={`${id}-title`}>{T.reportTitle(item.name)}</h2>
      <p id={`${id}-intro`}>{T.reportIntro}</p>
      <form onSubmit={submitTo(send.run)}>
        <div className="field">
          <label htmlFor={`${id}-reason`}>{T.reason}</label>
          <select
            id={`${id}-reason`}
            value={reason}
            onChange={(e) => setReason(e.target.value as ReportReason)}
            autoFocus
          >
            {REASONS.map((r) => (
              <option key={r} value={r}>
                {T.reasons[r]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-text`}>{T.reportText}</label>
          <textarea
            id={`${id}-text`}
            rows={5}
            maxLength={MAX_TEXT}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-describedby={`${id}-left`}
          />
          <p id={`${id}-left`} className="hint">
            {T.charactersLeft(MAX_TEXT - text.length)}
          </p>
        </div>
        <ErrorMessage message={send.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={send.busy}>
            {send.busy ? T.sending : T.send}
          </button>
          <button type="button" onClick={onClose}>
            {T.cancel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
