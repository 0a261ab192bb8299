/** Form pieces with the accessibility rules in one place: every input labelled, hints and errors tied to it. */
import { useId, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';

export function Field({
  label,
  hint,
  ...input
}: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
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

/** What an action (useAction) came to, where the page shows it: its error, or its success text. */
export function Outcome({ of }: { of: { error?: string; status?: string } }) {
  return (
    <>
      <ErrorMessage message={of.error} />
      {of.status && <Status>{of.status}</Status>}
    </>
  );
}

/** A form's onSubmit for an action (useAction's `run`): the page stays, and the action gets the form. */
export function submitTo(run: (form: HTMLFormElement) => unknown) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run(event.currentTarget);
  };
}
