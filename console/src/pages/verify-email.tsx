/**
 * The mailed link of sign-up (`/console/verify#token=…`): with the password
 * chosen at that sign-up it verifies the address and signs its holder in,
 * in whichever browser opens the mail. The link proves the mailbox, the
 * password the sign-up: a link someone else's sign-up caused does nothing
 * without their password (docs/security.md "Account lifecycle").
 */
import { useState } from 'react';
import { client, type SignedIn } from '../api';
import { ErrorMessage, Field, Status, submitTo } from '../components/form';
import { useAction } from '../hooks';
import { Link, takeFragment } from '../router';

export function VerifyEmailPage({ onSignedIn }: { onSignedIn(s: SignedIn): void }) {
  const [token] = useState(() => takeFragment('token'));
  const [verified, setVerified] = useState(false);
  const verify = useAction(async (form: HTMLFormElement) => {
    if (!token) throw new Error('This link has no token: open the whole link from the mail.');
    onSignedIn(await client.verifyEmail(token, String(new FormData(form).get('password'))));
    setVerified(true);
  });

  return (
    <section className="card narrow" aria-labelledby="verify-title">
      <h1 id="verify-title">Verify your email address</h1>
      {verified ? (
        <>
          <Status>
            Your email address is verified and you are signed in: you can now accept invitations and reset your password
            by mail.
          </Status>
          <p>
            <Link to="/keys">Go to the console</Link>
          </p>
        </>
      ) : (
        <>
          {token ? (
            <form onSubmit={submitTo(verify.run)}>
              <p>Enter the password you chose when you signed up: this link confirms that sign-up and no other.</p>
              <Field
                label="Password"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                autoFocus
              />
              <ErrorMessage message={verify.error} />
              <button type="submit" className="primary" disabled={verify.busy}>
                {verify.busy ? 'Verifying…' : 'Verify and sign in'}
              </button>
            </form>
          ) : (
            <ErrorMessage message="This link has no token: open the whole link from the mail." />
          )}
          <p>
            Each link works once, for 24 hours, until the address is verified. An expired one? Sign in with your
            password: a new link is mailed. Did not sign up? Ignore the mail: nothing happens without the password.
          </p>
          <p>
            <Link to="/sign-in">Sign in</Link>
          </p>
        </>
      )}
    </section>
  );
}
