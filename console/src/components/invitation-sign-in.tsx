/**
 * An invitation opened signed out: sign in, or create an account with the
 * invitation (where sign-up is open or by invitation), then "check your
 * email" and continue once the mailed link was opened in the same browser.
 */
import { useState } from 'react';
import { client, type AuthOptions, type SignedIn } from '../api';
import { useAction } from '../hooks';
import { CheckYourEmail } from './check-your-email';
import { ErrorMessage, Field, submitTo } from './form';

export function InvitationSignIn({
  token,
  options,
  onSignedIn,
}: {
  token: string;
  options: AuthOptions | undefined;
  onSignedIn(s: SignedIn): void;
}) {
  const [mode, setMode] = useState<'in' | 'up'>('in');
  const [requested, setRequested] = useState<string>();
  /** After the mailed link was opened (in another tab, same browser): its session is this page's too. */
  const continueSignedIn = useAction(async () => {
    const s = await client.getSession();
    if (!s) throw new Error('Not signed in yet: open the link from the mail first.');
    onSignedIn(s);
  });
  const enter = useAction(async (formElement: HTMLFormElement) => {
    const form = new FormData(formElement);
    const email = String(form.get('email'));
    const password = String(form.get('password'));
    const name = String(form.get('name') ?? '').trim();
    if (mode === 'in') return onSignedIn(await client.signIn(email, password));
    await client.signUp({ email, password, invitation: token, ...(name ? { name } : {}) });
    setRequested(email);
  });
  const canSignUp = options?.signUpMode !== 'closed';
  if (requested) {
    return (
      <>
        <CheckYourEmail email={requested} mailed={options?.passwordResetByMail === true} />
        <p>Once you have opened it, come back to this page to see the invitation.</p>
        <ErrorMessage message={continueSignedIn.error} />
        <button type="button" className="primary" onClick={() => void continueSignedIn.run()}>
          I opened the link: continue
        </button>
      </>
    );
  }
  return (
    <>
      <p>Sign in to accept it{canSignUp ? ', or create an account with this invitation' : ''}.</p>
      <form onSubmit={submitTo(enter.run)} key={mode}>
        {mode === 'up' && <Field label="Name (optional)" name="name" autoComplete="name" maxLength={120} />}
        <Field label="Email" name="email" type="email" autoComplete={mode === 'in' ? 'username' : 'email'} required />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete={mode === 'in' ? 'current-password' : 'new-password'}
          minLength={mode === 'up' ? 12 : undefined}
          hint={mode === 'up' ? 'At least 12 characters; common passwords are refused.' : undefined}
          required
        />
        <ErrorMessage message={enter.error} />
        <button type="submit" className="primary">
          {mode === 'in' ? 'Sign in' : 'Create account'}
        </button>
      </form>
      {canSignUp && (
        <p>
          <button type="button" className="link-button" onClick={() => setMode(mode === 'in' ? 'up' : 'in')}>
            {mode === 'in' ? 'No account yet? Create one' : 'Already have an account? Sign in'}
          </button>
        </p>
      )}
    </>
  );
}
