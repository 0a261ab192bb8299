/** The profile page: who is signed in, the plan, the password, the linked single sign-on, and every session of the account. */
import { client, type Account } from '../api';
import { AccountFacts } from '../components/account-facts';
import { ChangePasswordForm } from '../components/change-password';
import { Outcome } from '../components/form';
import { LinkedIdentities } from '../components/linked-identities';
import { SessionTable } from '../components/session-table';
import { WhenLoaded } from '../components/states';
import { useAction, useLoad } from '../hooks';
import { Link } from '../router';

export function ProfilePage({ account }: { account: Account }) {
  const loaded = useLoad(() => client.listSessions(), 'sessions');
  const act = useAction(
    async (write: () => Promise<string>) => {
      const done = await write();
      await loaded.reload();
      return done;
    },
    { queue: true },
  );

  const others = (loaded.data ?? []).filter((s) => !s.current).length;
  return (
    <>
      <section className="card" aria-labelledby="profile-title">
        <h1 id="profile-title">Profile</h1>
        <AccountFacts account={account} />
        <p>
          <Link to="/keys">Manage your API keys</Link>
        </p>
      </section>
      <section className="card" aria-labelledby="password-title">
        <h2 id="password-title">Password</h2>
        <ChangePasswordForm />
      </section>
      <section className="card" aria-labelledby="identities-title">
        <h2 id="identities-title">Single sign-on</h2>
        <LinkedIdentities />
      </section>
      <section className="card" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <WhenLoaded loaded={loaded} what="your sessions">
          {(d) => (
            <SessionTable
              sessions={d}
              onSignOut={(s) => act.run(() => client.endSession(s.id).then(() => 'Session signed out.'))}
            />
          )}
        </WhenLoaded>
        <button
          type="button"
          disabled={others === 0}
          onClick={() =>
            act.run(() =>
              client.signOutOtherSessions().then((n) => `Signed out ${n} other session${n === 1 ? '' : 's'}.`),
            )
          }
        >
          Sign out of every other session
        </button>
        <Outcome of={act} />
      </section>
    </>
  );
}
