/**
 * The pages a one-time link opens: sign in (operator or demo link) and choose
 * a new password (reset link); the sign-up mail's link is verify-email.tsx.
 */
import { useState } from 'react';
import { client, type SignedIn } from '../api';
import { RevokeKeysCheck } from '../components/change-password';
import { ErrorMessage, Field, submitTo } from '../components/form';
import { useAction, useOneTimeLink } from '../hooks';
import { Link, takeFragment } from '../router';

export function SignInLinkPage({ onSignedIn }: { onSignedIn(s: SignedIn): void }) {
  const { error } = useOneTimeLink((token) => client.signInWithLink(token), onSignedIn, 'This link has no token.');
  return (
    <section className="card narrow" aria-labelledby="link-title">
      <h1 id="link-title">Signing you in…</h1>
      <ErrorMessage message={error} />
      {error && (
        <p>
          <Link to="/sign-in">Sign in another way</Link>
        </p>
      )}
    </section>
  );
}

export function ResetPage({ onSignedIn }: { onSignedIn(s: SignedIn): void }) {
  const [token] = useState(() => takeFragment('token'));
  const reset = useAction(async (formElement: HTMLFormElement) => {
    if (!token) throw new Error('This link has no token.');
    const form = new FormData(formElement);
    const choices = { revokeApiKeys: form.get('revoke') === 'on', unlinkIdentities: form.get('unlink') === 'on' };
    onSignedIn(await client.resetPassword(token, String(form.get('password')), choices));
  });
  return (
    <section className="card narrow" aria-labelledby="reset-title">
      <h1 id="reset-title">Choose a new password</h1>
      <form onSubmit={submitTo(reset.run)}>
        <Field
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={12}
          required
          hint="At least 12 characters; every other session of your account is signed out."
        />
        <RevokeKeysCheck />
        <div className="check">
          <input type="checkbox" id="unlink-identities" name="unlink" aria-describedby="unlink-identities-help" />
          <label htmlFor="unlink-identities">Also unlink all single sign-on</label>
          <span id="unlink-identities-help" className="hint">
            Every identity linked to your account stops signing in to it; link yours again from your profile.
          </span>
        </div>
        <ErrorMessage message={reset.error} />
        <button type="submit" className="primary">
          Set password and sign in
        </button>
      </form>
    </section>
  );
}
