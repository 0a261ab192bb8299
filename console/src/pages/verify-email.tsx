/**
 * The mailed link of sign-up (`/console/verify#token=…`): with the password
 * chosen at that sign-up it verifies the address and signs its holder in,
 * in whichever browser opens the mail. The link proves the mailbox, the
 * password the sign-up: a link someone else's sign-up caused does nothing
 * without their password (docs/security.md "Account lifecycle").
 */
import { useState, type FormEvent } from 'react';
import { client, type SignedIn } from '../api';
import { ErrorMessage, Field, Status, messageOf } from '../components/form';
import { Link, takeFragment } from '../router';

export function VerifyEmailPage({ onSignedIn }: { onSignedIn(s: SignedIn): void }) {
  const [token] = useState(() => takeFragment('token'));
  const [error, setError] = useState<string | undefined>(token ? undefined : 'This link has no token: open the whole link from the mail.');
  const [verified, setVerified] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!token) return;
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(await client.verifyEmail(token, String(new FormData(event.currentTarget).get('password'))));
      setVerified(true);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card narrow" aria-labelledby="verify-title">
      <h1 id="verify-title">Verify your email address</h1>
      {verified ? (
        <>
          <Status>Your email address is verified and you are signed in: you can now accept invitations and reset your password by mail.</Status>
          <p>
            <Link to="/keys">Go to the console</Link>
          </p>
        </>
      ) : (
        <>
          {token && (
            <form onSubmit={submit}>
              <p>Enter the password you chose when you signed up: this link confirms that sign-up and no other.</p>
              <Field label="Password" name="password" type="password" autoComplete="current-password" required autoFocus />
              <ErrorMessage message={error} />
              <button type="submit" className="primary" disabled={busy}>
                {busy ? 'Verifying…' : 'Verify and sign in'}
              </button>
            </form>
          )}
          {!token && <ErrorMessage message={error} />}
          <p>
            Each link works once, for 24 hours, until the address is verified. An expired one? Sign in with your password: a new link is mailed. Did not sign
            up? Ignore the mail: nothing happens without the password.
          </p>
          <p>
            <Link to="/sign-in">Sign in</Link>
          </p>
        </>
      )}
    </section>
  );
}
