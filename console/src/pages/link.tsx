/**
 * The pages a one-time link opens: sign in (operator or demo link), choose a
 * new password (reset link) and verify an email address (the sign-up mail).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { client, type SignedIn } from '../api';
import { RevokeKeysCheck } from '../components/change-password';
import { ErrorMessage, Field, Status, messageOf } from '../components/form';
import { Link, takeFragment } from '../router';

export function SignInLinkPage({ onSignedIn }: { onSignedIn(s: SignedIn): void }) {
  const [error, setError] = useState<string>();
  const started = useRef(false);
  useEffect(() => {
    // Once: the link is single-use, and React may run effects twice in development.
    if (started.current) return;
    started.current = true;
    const token = takeFragment('token');
    if (!token) return setError('This link has no token.');
    client.signInWithLink(token).then(onSignedIn, (err: unknown) => setError(messageOf(err)));
  }, [onSignedIn]);
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
  const [error, setError] = useState<string>();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!token) return setError('This link has no token.');
    try {
      const form = new FormData(event.currentTarget);
      onSignedIn(await client.resetPassword(token, String(form.get('password')), form.get('revoke') === 'on'));
    } catch (err) {
      setError(messageOf(err));
    }
  }
  return (
    <section className="card narrow" aria-labelledby="reset-title">
      <h1 id="reset-title">Choose a new password</h1>
      <form onSubmit={submit}>
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
        <ErrorMessage message={error} />
        <button type="submit" className="primary">
          Set password and sign in
        </button>
      </form>
    </section>
  );
}

/** The mailed link of sign-up (`/console/verify#token=…`): works signed in or not, in whichever browser opens the mail. */
/** The sign-up mail's link: it verifies the address and signs its holder in (the page stays, to say so). */
export function VerifyEmailPage({ onSignedIn }: { onSignedIn(s: SignedIn): void }) {
  const [state, setState] = useState<'verifying' | 'verified' | 'failed'>('verifying');
  const [error, setError] = useState<string>();
  const started = useRef(false);
  useEffect(() => {
    // Once: the link is single-use, and React may run effects twice in development.
    if (started.current) return;
    started.current = true;
    const token = takeFragment('token');
    const fail = (message: string) => {
      setState('failed');
      setError(message);
    };
    if (!token) return fail('This link has no token: open the whole link from the mail.');
    client.verifyEmail(token).then(
      (s) => {
        onSignedIn(s);
        setState('verified');
      },
      (err: unknown) => fail(messageOf(err)),
    );
  }, [onSignedIn]);
  return (
    <section className="card narrow" aria-labelledby="verify-title">
      <h1 id="verify-title">{state === 'failed' ? 'Your email address is not verified' : 'Verify your email address'}</h1>
      {state === 'verifying' && <p>Verifying…</p>}
      {state === 'verified' && (
        <Status>Your email address is verified and you are signed in: you can now accept invitations and reset your password by mail.</Status>
      )}
      <ErrorMessage message={error} />
      {state === 'failed' && <p>Each link works once, for 24 hours. If it has expired, ask the server's operator to verify the address.</p>}
      {state !== 'verifying' && <p>{state === 'verified' ? <Link to="/keys">Go to the console</Link> : <Link to="/sign-in">Sign in</Link>}</p>}
    </section>
  );
}
