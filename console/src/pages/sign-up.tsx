/** Sign-up: ask for an account, then "check your email" (no session until the mailed link is opened). */
import { useState } from 'react';
import { client, type AuthOptions } from '../api';
import { ErrorMessage, Field, submitTo } from '../components/form';
import { CheckYourEmail } from '../components/check-your-email';
import { useAction } from '../hooks';
import { Link, takeFragment } from '../router';

const PASSWORD_HINT =
  'At least 12 characters. Common passwords and ones containing your email are refused; a few unrelated words work well.';

export function SignUpPage({ options }: { options: AuthOptions | undefined }) {
  const [invitation] = useState(() => takeFragment('invitation'));
  const [requested, setRequested] = useState<string>();
  const signUp = useAction(async (formElement: HTMLFormElement) => {
    const form = new FormData(formElement);
    const name = String(form.get('name') ?? '').trim();
    const email = String(form.get('email'));
    await client.signUp({
      email,
      password: String(form.get('password')),
      ...(name ? { name } : {}),
      ...(invitation ? { invitation } : {}),
    });
    setRequested(email);
  });

  if (requested) {
    return (
      <section className="card narrow" aria-labelledby="sign-up-title">
        <h1 id="sign-up-title">Check your email</h1>
        <CheckYourEmail email={requested} mailed={options?.passwordResetByMail === true} />
      </section>
    );
  }
  if (options?.signUpMode === 'closed') {
    return (
      <section className="card narrow" aria-labelledby="sign-up-title">
        <h1 id="sign-up-title">Create an account</h1>
        <p>Sign-up is closed on this server: ask your operator for an account.</p>
      </section>
    );
  }
  return (
    <section className="card narrow" aria-labelledby="sign-up-title">
      <h1 id="sign-up-title">Create an account</h1>
      {options?.signUpMode === 'invite' && !invitation && (
        <p>This server signs people up by invitation: open the invitation link you were sent.</p>
      )}
      <form onSubmit={submitTo(signUp.run)}>
        <Field label="Name (optional)" name="name" autoComplete="name" maxLength={120} />
        <Field label="Email" name="email" type="email" autoComplete="email" required />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={12}
          required
          hint={PASSWORD_HINT}
        />
        <ErrorMessage message={signUp.error} />
        <button type="submit" className="primary" disabled={signUp.busy}>
          {signUp.busy ? 'Creating…' : 'Create account'}
        </button>
      </form>
      <p className="hint">New accounts start on the free plan, which has no API access; an operator can change it.</p>
      <p>
        Already have an account? <Link to="/sign-in">Sign in</Link>.
      </p>
    </section>
  );
}
