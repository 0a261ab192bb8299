/**
 * An invitation opened signed out: sign in, or create an account with the
 * invitation (where sign-up is open or by invitation), then "check your
 * email" and continue once the mailed link was opened in the same browser.
 */
import { useState, type FormEvent } from 'react';
import { client, type AuthOptions, type SignedIn } from '../api';
import { CheckYourEmail } from './check-your-email';
import { ErrorMessage, Field, messageOf } from './form';

export function InvitationSignIn({ token, options, onSignedIn }: { token: string; options: AuthOptions | undefined; onSignedIn(s: SignedIn): void }) {
  const [mode, setMode] = useState<'in' | 'up'>('in');
  const [error, setError] = useState<string>();
  const [requested, setRequested] = useState<string>();
  /** After the mailed link was opened (in another tab, same browser): its session is this page's too. */
  async function continueSignedIn() {
    setError(undefined);
    try {
      const s = await client.getSession();
      if (s) onSignedIn(s);
      else setError('Not signed in yet: open the link from the mail first.');
    } catch (err) {
      setError(messageOf(err));
    }
  }
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email'));
    const password = String(form.get('password'));
    setError(undefined);
    try {
      const name = String(form.get('name') ?? '').trim();
      if (mode === 'in') onSignedIn(await client.signIn(email, password));
      else {
        await client.signUp({ email, password, invitation: token, ...(name ? { name } : {}) });
        setRequested(email);
      }
    } catch (err) {
      setError(messageOf(err));
    }
  }
  const canSignUp = options?.signUpMode !== 'closed';
  if (requested) {
    return (
      <>
        <CheckYourEmail email={requested} mailed={options?.passwordResetByMail === true} />
        <p>Once you have opened it, come back to this page to see the invitation.</p>
        <ErrorMessage message={error} />
        <button type="button" className="primary" onClick={continueSignedIn}>
          I opened the link: continue
        </button>
      </>
    );
  }
  return (
    <>
      <p>Sign in to accept it{canSignUp ? ', or create an account with this invitation' : ''}.</p>
      <form onSubmit={submit} key={mode}>
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
        <ErrorMessage message={error} />
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
