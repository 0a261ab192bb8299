/**
 * Creating or rolling a key needs a recent sign-in (the server answers 403
 * after 10 minutes): `guard` runs the action, and on that 403 asks for the
 * password in a dialog, confirms it with the server and runs the action once more.
 * Where the server offers single sign-on, the dialog also offers it (the way
 * for a person without a password): the provider sends the browser back to
 * the keys page, where the person asks again.
 */
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ApiError, client } from '../api';
import { useAction } from '../hooks';
import { ErrorMessage, Field, submitTo } from './form';

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
  const [provider, setProvider] = useState<string>();
  // the password or the provider: one error line, the last way tried speaks
  const confirm = useAction((how: () => Promise<void>) => how());
  const withPassword = async (form: HTMLFormElement) => {
    await client.reauthenticate(String(new FormData(form).get('password')));
    form.reset();
    onDone(true);
  };
  const viaProvider = async () => {
    const { url } = await client.oidcReauthenticate();
    window.location.assign(url);
  };
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
    if (open && !dialog.open) {
      confirm.clear();
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={() => onDone(false)}>
      <h2 id={titleId}>Confirm it is you</h2>
      <form onSubmit={submitTo((form) => confirm.run(() => withPassword(form)))}>
        <p>You signed in more than 10 minutes ago. Enter your password to go on.</p>
        <Field
          label="Your password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          autoFocus
        />
        <ErrorMessage message={confirm.error} />
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
            <button type="button" onClick={() => void confirm.run(viaProvider)}>
              Confirm with {provider}
            </button>
          </p>
        )}
      </form>
    </dialog>
  );
}
