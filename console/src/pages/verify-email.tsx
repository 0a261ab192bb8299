/**
 * The mailed link of sign-up (`/console/verify#token=…`): it verifies the
 * address and signs its holder in, signed in or not, in whichever browser
 * opens the mail (the page stays, to say so).
 */
import { client, type SignedIn } from '../api';
import { ErrorMessage, Status } from '../components/form';
import { useOneTimeLink } from '../hooks';
import { Link } from '../router';

export function VerifyEmailPage({ onSignedIn }: { onSignedIn(s: SignedIn): void }) {
  const { state, error } = useOneTimeLink((token) => client.verifyEmail(token), onSignedIn, 'This link has no token: open the whole link from the mail.');
  return (
    <section className="card narrow" aria-labelledby="verify-title">
      <h1 id="verify-title">{state === 'failed' ? 'Your email address is not verified' : 'Verify your email address'}</h1>
      {state === 'redeeming' && <p>Verifying…</p>}
      {state === 'redeemed' && (
        <Status>Your email address is verified and you are signed in: you can now accept invitations and reset your password by mail.</Status>
      )}
      <ErrorMessage message={error} />
      {state === 'failed' && <p>Each link works once, for 24 hours. If it has expired, ask the server's operator to verify the address.</p>}
      {state !== 'redeeming' && <p>{state === 'redeemed' ? <Link to="/keys">Go to the console</Link> : <Link to="/sign-in">Sign in</Link>}</p>}
    </section>
  );
}
