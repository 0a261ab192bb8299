/**
 * Where an invitation link opens (`/console/invitations#token=…`): signed
 * out, sign in or create an account (the link also lets one sign up where
 * sign-up needs an invitation); signed in, see what it offers and accept.
 * The token is read once from the fragment and kept in memory only.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { client, type AuthOptions, type InvitedRole, type SignedIn, type Workspace } from '../api';
import { ErrorMessage, Field, Status, messageOf } from '../components/form';
import { Loading } from '../components/states';
import { when } from '../format';
import { ROLE_HELP } from '../roles';
import { Link, takeFragment } from '../router';
import { CheckYourEmail } from './sign-up';

interface Offer {
  role: InvitedRole;
  expiresAt: string;
  workspace: { id: string; name: string };
}

function SignInOrUp({ token, options, onSignedIn }: { token: string; options: AuthOptions | undefined; onSignedIn(s: SignedIn): void }) {
  const [mode, setMode] = useState<'in' | 'up'>('in');
  const [error, setError] = useState<string>();
  const [requested, setRequested] = useState<string>();
  /** After the mailed link was opened (in another tab, same browser): its session is this page's too. */
  async function continueSignedIn() {
    setError(undefined);
    try {
      const s = await client.getSession();
      if (s) onSignedIn(s);
      else setError('Not signed in yet: open the link from the mail first.');
    } catch (err) {
      setError(messageOf(err));
    }
  }
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email'));
    const password = String(form.get('password'));
    setError(undefined);
    try {
      const name = String(form.get('name') ?? '').trim();
      if (mode === 'in') onSignedIn(await client.signIn(email, password));
      else {
        await client.signUp({ email, password, invitation: token, ...(name ? { name } : {}) });
        setRequested(email);
      }
    } catch (err) {
      setError(messageOf(err));
    }
  }
  const canSignUp = options?.signUpMode !== 'closed';
  if (requested) {
    return (
      <>
        <CheckYourEmail email={requested} mailed={options?.passwordResetByMail === true} />
        <p>Once you have opened it, come back to this page to see the invitation.</p>
        <ErrorMessage message={error} />
        <button type="button" className="primary" onClick={continueSignedIn}>
          I opened the link: continue
        </button>
      </>
    );
  }
  return (
    <>
      <p>Sign in to accept it{canSignUp ? ', or create an account with this invitation' : ''}.</p>
      <form onSubmit={submit} key={mode}>
        {mode === 'up' && <Field label="Name (optional)" name="name" autoComplete="name" maxLength={120} />}
        <Field label="Email" name="email" type="email" autoComplete={mode === 'in' ? 'username' : 'email'} required />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete={mode === 'in' ? 'current-password' : 'new-password'}
          minLength={mode === 'up' ? 12 : undefined}
          hint={mode === 'up' ? 'At least 12 characters; common passwords are refused.' : undefined}
          required
        />
        <ErrorMessage message={error} />
        <button type="submit" className="primary">
          {mode === 'in' ? 'Sign in' : 'Create account'}
        </button>
      </form>
      {canSignUp && (
        <p>
          <button type="button" className="link-button" onClick={() => setMode(mode === 'in' ? 'up' : 'in')}>
            {mode === 'in' ? 'No account yet? Create one' : 'Already have an account? Sign in'}
          </button>
        </p>
      )}
    </>
  );
}

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
  const [offer, setOffer] = useState<Offer>();
  const [joined, setJoined] = useState<Workspace>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (!token) return setError('This invitation link has no token: open the whole link you were sent.');
    if (!signedIn) return;
    client.previewInvitation(token).then(
      (invitation) => setOffer(invitation),
      (err: unknown) => setError(messageOf(err)),
    );
  }, [token, signedIn]);

  async function accept() {
    if (!token) return;
    setError(undefined);
    try {
      setJoined(await client.acceptInvitation(token));
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return (
    <section className="card narrow" aria-labelledby="invitation-title">
      <h1 id="invitation-title">{joined ? `Welcome to ${joined.name}` : 'Join a team workspace'}</h1>
      {token && !signedIn && <SignInOrUp token={token} options={options} onSignedIn={onSignedIn} />}
      {signedIn && !offer && !error && <Loading what="the invitation" />}
      {offer && !joined && (
        <>
          <p>
            You are invited to <strong>{offer.workspace.name}</strong> as <span className={`badge role-${offer.role}`}>{offer.role}</span> (
            {ROLE_HELP[offer.role]}).
          </p>
          <p className="hint">
            Signed in as {signedIn?.account.email}. The invitation works once, until {when(offer.expiresAt)}.
          </p>
          <button type="button" className="primary" onClick={accept}>
            Accept invitation
          </button>
        </>
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
      <ErrorMessage message={error} />
    </section>
  );
}
