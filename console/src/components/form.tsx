/** Form pieces with the accessibility rules in one place: every input labelled, hints and errors tied to it. */
import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export function Field({ label, hint, ...input }: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={hint ? hintId : undefined} {...input} />
      {hint && (
        <p id={hintId} className="hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/** An error of the last action, announced to screen readers as it appears. */
export function ErrorMessage({ message }: { message: string | undefined }) {
  return (
    <div role="alert" className={message ? 'error' : 'error empty'}>
      {message}
    </div>
  );
}

/** A polite status line (saved, copied, signed out …). */
export function Status({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="status">
      {children}
    </p>
  );
}

export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
