/** What an invitation offers (the workspace, the role and what it allows, until when) to the signed-in account, and "Accept". */
import { client, type InvitedRole, type Workspace } from '../api';
import { when } from '../format';
import { useAction, useLoad } from '../hooks';
import { ROLE_HELP } from '../roles';
import { ErrorMessage } from './form';
import { WhenLoaded } from './states';

interface Offer {
  role: InvitedRole;
  expiresAt: string;
  workspace: { id: string; name: string };
}

export function InvitationOffer({
  token,
  email,
  onJoined,
}: {
  token: string;
  email: string;
  onJoined(w: Workspace): void;
}) {
  const loaded = useLoad<Offer>(() => client.previewInvitation(token), token);
  const accept = useAction(async () => onJoined(await client.acceptInvitation(token)));

  return (
    <WhenLoaded loaded={loaded} what="the invitation">
      {(offer) => (
        <>
          <p>
            You are invited to <strong>{offer.workspace.name}</strong> as{' '}
            <span className={`badge role-${offer.role}`}>{offer.role}</span> ({ROLE_HELP[offer.role]}).
          </p>
          <p className="hint">
            Signed in as {email}. The invitation works once, until {when(offer.expiresAt)}.
          </p>
          <button type="button" className="primary" onClick={() => void accept.run()}>
            Accept invitation
          </button>
          <ErrorMessage message={accept.error} />
        </>
      )}
    </WhenLoaded>
  );
}
