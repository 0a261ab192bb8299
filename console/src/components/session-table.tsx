/** Every session of the account as a table: how and where it signed in, when it ends, and "sign out" on the others. */
import type { Session } from '../api';
import { when } from '../format';
import { TableHead } from './table-head';

const METHODS: Record<Session['method'], string> = {
  password: 'Password',
  oidc: 'Single sign-on',
  link: 'One-time link',
};

export function SessionTable({ sessions, onSignOut }: { sessions: Session[]; onSignOut(session: Session): void }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Where your account is signed in</caption>
        <TableHead columns={['Signed in with', 'Browser', 'Since', 'Last seen', 'Ends']} />
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
                  <button type="button" onClick={() => onSignOut(s)}>
                    Sign out<span className="visually-hidden"> the session from {when(s.createdAt)}</span>
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
