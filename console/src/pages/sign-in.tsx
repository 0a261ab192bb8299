import { useEffect, useState, type FormEvent } from 'react';
import { client, type AuthOptions, type SignedIn } from '../api';
import { ErrorMessage, Field, Status, messageOf } from '../components/form';
import { signInErrorText } from '../messages';
import { Link, takeFragment } from '../router';

export function SignInPage({ options, onSignedIn }: { options: AuthOptions | undefined; onSignedIn(s: SignedIn): void }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [resetSent, setResetSent] = useState(false);
  // single sign-on comes back with a code of what went wrong, shown in the console's own words
  useEffect(() => setError(signInErrorText(takeFragment('error'))), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(await client.signIn(String(form.get('email')), String(form.get('password'))));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  async function forgot(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    try {
      await client.requestPasswordReset(String(new FormData(event.currentTarget).get('email')));
      setResetSent(true);
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return (
    <section className="card narrow" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in</h1>
      <form onSubmit={submit}>
        <Field label="Email" name="email" type="email" autoComplete="username" required />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <ErrorMessage message={error} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {options?.oidc && (
        <p>
          <a className="button" href={options.oidc.startUrl}>
            Sign in with {options.oidc.name}
          </a>
        </p>
      )}
      {options && options.signUpMode !== 'closed' && (
        <p>
          No account yet? <Link to="/sign-up">Create one</Link>
          {options.signUpMode === 'invite' && ' (with the invitation link you were sent)'}.
        </p>
      )}
      {options?.passwordResetByMail && (
        <details>
          <summary>Forgot your password?</summary>
          <form onSubmit={forgot}>
            <Field label="Email for the reset link" name="email" type="email" autoComplete="email" required />
            <button type="submit">Mail me a reset link</button>
          </form>
          {resetSent && <Status>If an account has this address, a reset link is on its way.</Status>}
        </details>
      )}
    </section>
  );
}
