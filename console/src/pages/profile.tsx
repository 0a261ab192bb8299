/** The profile page: who is signed in, the plan, the password, and every session of the account. */
import { useCallback, useEffect, useState } from 'react';
import { client, type Account, type Session } from '../api';
import { ChangePasswordForm } from '../components/change-password';
import { ErrorMessage, Status, messageOf } from '../components/form';
import { when } from '../format';
import { Link } from '../router';

const METHODS: Record<Session['method'], string> = { password: 'Password', oidc: 'Single sign-on', link: 'One-time link' };

export function ProfilePage({ account }: { account: Account }) {
  const [sessions, setSessions] = useState<Session[]>([]);
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState<string>();
  const load = useCallback(
    () =>
      client.listSessions().then(
        (all) => setSessions(all),
        (err: unknown) => setError(messageOf(err)),
      ),
    [],
  );
  useEffect(() => {
    void load();
  }, [load]);

  async function act<T>(action: () => Promise<T>, done: (answer: T) => string) {
    setError(undefined);
    try {
      setStatus(done(await action()));
      await load();
    } catch (err) {
      setError(messageOf(err));
    }
  }

  const others = sessions.filter((s) => !s.current).length;
  return (
    <>
      <section className="card" aria-labelledby="profile-title">
        <h1 id="profile-title">Profile</h1>
        <dl className="facts">
          <dt>Email</dt>
          <dd>{account.email}</dd>
          <dt>Name</dt>
          <dd>{account.name ?? '—'}</dd>
          <dt>Plan</dt>
          <dd>
            <span className={`badge plan-${account.plan}`}>{account.plan}</span>
            {account.plan === 'free' && (
              <span className="hint"> The free plan has no API access: your keys get 403 until an operator moves you to pro or team.</span>
            )}
          </dd>
        </dl>
        <p>
          <Link to="/keys">Manage your API keys</Link>
        </p>
      </section>
      <section className="card" aria-labelledby="password-title">
        <h2 id="password-title">Password</h2>
        <ChangePasswordForm />
      </section>
      <section className="card" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Where your account is signed in</caption>
            <thead>
              <tr>
                <th scope="col">Signed in with</th>
                <th scope="col">Browser</th>
                <th scope="col">Since</th>
                <th scope="col">Last seen</th>
                <th scope="col">Ends</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.id}>
                  <td>
                    {METHODS[s.method]} {s.current && <span className="badge">this session</span>}
                  </td>
                  <td className="ua">{s.userAgent ?? '—'}</td>
                  <td>{when(s.createdAt)}</td>
                  <td>{when(s.lastSeenAt)}</td>
                  <td>{when(s.idleExpiresAt < s.expiresAt ? s.idleExpiresAt : s.expiresAt)}</td>
                  <td>
                    {!s.current && (
                      <button
                        type="button"
                        onClick={() =>
                          act(
                            () => client.endSession(s.id),
                            () => 'Session signed out.',
                          )
                        }
                      >
                        Sign out<span className="visually-hidden"> the session from {when(s.createdAt)}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <button
          type="button"
          disabled={others === 0}
          onClick={() =>
            act(
              () => client.signOutOtherSessions(),
              (n) => `Signed out ${n} other session${n === 1 ? '' : 's'}.`,
            )
          }
        >
          Sign out of every other session
        </button>
        <ErrorMessage message={error} />
        {status && <Status>{status}</Status>}
      </section>
    </>
  );
}
