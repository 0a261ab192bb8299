/**
 * Where an invitation link opens (`/console/invitations#token=…`): signed
 * out, sign in or create an account (the link also lets one sign up where
 * sign-up needs an invitation); signed in, see what it offers and accept.
 * The token is read once from the fragment and kept in memory only.
 */
import { useState } from 'react';
import type { AuthOptions, SignedIn } from '../api';
import type { Workspace } from '../api';
import { ErrorMessage, Status } from '../components/form';
import { InvitationOffer } from '../components/invitation-offer';
import { InvitationSignIn } from '../components/invitation-sign-in';
import { Link, takeFragment } from '../router';

export function InvitationPage({
  signedIn,
  options,
  onSignedIn,
}: {
  signedIn: SignedIn | null;
  options: AuthOptions | undefined;
  onSignedIn(s: SignedIn): void;
}) {
  const [token] = useState(() => takeFragment('token'));
  const [joined, setJoined] = useState<Workspace>();

  return (
    <section className="card narrow" aria-labelledby="invitation-title">
      <h1 id="invitation-title">{joined ? `Welcome to ${joined.name}` : 'Join a team workspace'}</h1>
      {token && !signedIn && <InvitationSignIn token={token} options={options} onSignedIn={onSignedIn} />}
      {token && signedIn && !joined && (
        <InvitationOffer token={token} email={signedIn.account.email} onJoined={setJoined} />
      )}
      {joined && (
        <>
          <Status>
            You joined {joined.name} as {joined.role}.
          </Status>
          <p>
            <Link to={`/workspaces/${joined.id}`}>Open the workspace</Link>
          </p>
        </>
      )}
      {!token && <ErrorMessage message="This invitation link has no token: open the whole link you were sent." />}
    </section>
  );
}
