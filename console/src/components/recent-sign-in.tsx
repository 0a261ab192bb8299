/**
 * Creating or rolling a key needs a recent sign-in (the server answers 403
 * after 10 minutes): `guard` runs the action, and on that 403 asks for the
 * password in a dialog, confirms it with the server and runs the action once more.
 * Where the server offers single sign-on, the dialog also offers it (the way
 * for a person without a password): the provider sends the browser back to
 * the keys page, where the person asks again.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError, client } from '../api';
import { ErrorMessage, Field, messageOf } from './form';

export function useRecentSignIn(): { guard<T>(action: () => Promise<T>): Promise<T>; dialog: ReactNode } {
  const [waiting, setWaiting] = useState<(confirmed: boolean) => void>();
  const guard = useCallback(async <T,>(action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 403)) throw err;
      const confirmed = await new Promise<boolean>((resolve) => setWaiting(() => resolve));
      if (!confirmed) throw err;
      return action();
    }
  }, []);
  const done = (confirmed: boolean) => {
    waiting?.(confirmed);
    setWaiting(undefined);
  };
  return { guard, dialog: <PasswordDialog open={waiting !== undefined} onDone={done} /> };
}

function PasswordDialog({ open, onDone }: { open: boolean; onDone(confirmed: boolean): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [error, setError] = useState<string>();
  const [provider, setProvider] = useState<string>();
  useEffect(() => {
    if (!open) return;
    client.authOptions().then(
      (options) => setProvider(options.oidc?.name),
      () => setProvider(undefined),
    );
  }, [open]);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    try {
      await client.reauthenticate(String(new FormData(form).get('password')));
      setError(undefined);
      form.reset();
      onDone(true);
    } catch (err) {
      setError(messageOf(err));
    }
  }

  async function viaProvider() {
    try {
      const { url } = await client.oidcReauthenticate();
      window.location.assign(url);
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={() => onDone(false)}>
      <h2 id={titleId}>Confirm it is you</h2>
      <form onSubmit={submit}>
        <p>You signed in more than 10 minutes ago. Enter your password to go on.</p>
        <Field label="Your password" name="password" type="password" autoComplete="current-password" required autoFocus />
        <ErrorMessage message={error} />
        <div className="actions">
          <button type="submit" className="primary">
            Confirm
          </button>
          <button type="button" onClick={() => onDone(false)}>
            Cancel
          </button>
        </div>
        {provider && (
          <p>
            No password here?{' '}
            <button type="button" onClick={() => void viaProvider()}>
              Confirm with {provider}
            </button>
          </p>
        )}
      </form>
    </dialog>
  );
}
