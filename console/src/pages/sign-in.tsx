import { useEffect } from 'react';
import { client, type AuthOptions, type SignedIn } from '../api';
import { ErrorMessage, Field, Outcome, submitTo } from '../components/form';
import { useAction } from '../hooks';
import { signInErrorText } from '../messages';
import { Link, takeFragment } from '../router';

export function SignInPage({
  options,
  onSignedIn,
}: {
  options: AuthOptions | undefined;
  onSignedIn(s: SignedIn): void;
}) {
  const signIn = useAction(async (formElement: HTMLFormElement) => {
    const form = new FormData(formElement);
    onSignedIn(await client.signIn(String(form.get('email')), String(form.get('password'))));
  });
  const forgot = useAction(async (form: HTMLFormElement) => {
    await client.requestPasswordReset(String(new FormData(form).get('email')));
    return 'If an account has this address, a reset link is on its way.';
  });
  // single sign-on comes back with a code of what went wrong, shown in the console's own words
  useEffect(() => {
    const failed = signInErrorText(takeFragment('error'));
    if (failed) signIn.fail(failed);
  }, []);

  return (
    <section className="card narrow" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in</h1>
      <form onSubmit={submitTo(signIn.run)}>
        <Field label="Email" name="email" type="email" autoComplete="username" required />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <ErrorMessage message={signIn.error} />
        <button type="submit" className="primary" disabled={signIn.busy}>
          {signIn.busy ? 'Signing in…' : 'Sign in'}
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
          <form onSubmit={submitTo(forgot.run)}>
            <Field label="Email for the reset link" name="email" type="email" autoComplete="email" required />
            <button type="submit">Mail me a reset link</button>
          </form>
          <Outcome of={forgot} />
        </details>
      )}
    </section>
  );
}
