/**
 * The mailed link of sign-up (`/console/verify#token=…`): it verifies the
 * address and signs its holder in, signed in or not, in whichever browser
 * opens the mail (the page stays, to say so).
 */
import { useEffect, useRef, useState } from 'react';
import { client, type SignedIn } from '../api';
import { ErrorMessage, Status, messageOf } from '../components/form';
import { Link, takeFragment } from '../router';

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
