/**
 * Invitations of a workspace (owners and admins): a new link with a role
 * and an expiry, shown once to copy (and mailed when the server can), and
 * the pending ones, each revocable.
 */
import { useState } from 'react';
import { client, type CreatedInvitation, type Invitation } from '../api';
import { when } from '../format';
import { useAction, useCopy } from '../hooks';
import { INVITABLE, ROLE_HELP } from '../roles';
import { Field, Outcome, Status, submitTo } from './form';
import { Empty } from './states';
import { TableHead } from './table-head';

const EXPIRY = [1, 7, 14, 30];

function NewLink({ invitation, onDone }: { invitation: CreatedInvitation; onDone(): void }) {
  const [copied, copy] = useCopy();
  return (
    <div className="new-key" tabIndex={-1} ref={(el) => el?.focus()} aria-labelledby="new-link-title" role="group">
      <h3 id="new-link-title">Invitation link ({invitation.role})</h3>
      <p>
        {invitation.mailed ? `Mailed to ${invitation.email}. ` : ''}
        <strong>Copy it now:</strong> it is shown only once, works once, until {when(invitation.expiresAt)}.
      </p>
      <div className="secret">
        <code aria-label="The invitation link">{invitation.url}</code>
        <button
          type="button"
          onClick={() =>
            copy(
              invitation.url,
              'Link copied to the clipboard.',
              'Copying is not allowed here: select the link and copy it.',
            )
          }
        >
          Copy link
        </button>
      </div>
      {copied && <Status>{copied}</Status>}
      <button type="button" className="primary" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

export function Invitations({
  workspaceId,
  pending,
  onChanged,
}: {
  workspaceId: string;
  pending: Invitation[];
  onChanged(): void;
}) {
  const [created, setCreated] = useState<CreatedInvitation>();
  // inviting and revoking speak on one line, under the form
  const act = useAction((write: () => Promise<string | void>) => write(), { queue: true });

  async function invite(form: HTMLFormElement) {
    const input = new FormData(form);
    const email = String(input.get('email') ?? '').trim();
    const role = String(input.get('role')) as CreatedInvitation['role'];
    const invitation = await client.createWorkspaceInvitation(workspaceId, {
      role,
      email: email || null,
      expiresInDays: Number(input.get('expiry')),
    });
    form.reset();
    setCreated(invitation);
    onChanged();
  }

  async function revoke(invitation: Invitation) {
    await client.revokeWorkspaceInvitation(workspaceId, invitation.id);
    onChanged();
    return `Invitation${invitation.email ? ` for ${invitation.email}` : ''} revoked: its link no longer works.`;
  }

  return (
    <>
      {created ? (
        <NewLink invitation={created} onDone={() => setCreated(undefined)} />
      ) : (
        <form onSubmit={submitTo((form) => act.run(() => invite(form)))} className="invite-form">
          <div className="field">
            <label htmlFor="invite-role">Role</label>
            <select id="invite-role" name="role" defaultValue="member" aria-describedby="invite-role-help">
              {INVITABLE.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
            <p id="invite-role-help" className="hint">
              Member: {ROLE_HELP.member}; viewer: {ROLE_HELP.viewer}.
            </p>
          </div>
          <Field
            label="Email (optional)"
            name="email"
            type="email"
            maxLength={254}
            hint="The link is mailed there when this server can send mail."
          />
          <div className="field">
            <label htmlFor="invite-expiry">Link expires</label>
            <select id="invite-expiry" name="expiry" defaultValue="7">
              {EXPIRY.map((d) => (
                <option key={d} value={d}>
                  in {d} day{d === 1 ? '' : 's'}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="primary">
            Create invitation link
          </button>
        </form>
      )}
      <Outcome of={act} />
      <h3>Pending invitations</h3>
      {pending.length === 0 ? (
        <Empty title="No pending invitation." />
      ) : (
        <div className="table-wrap">
          <table>
            <TableHead columns={['For', 'Role', 'Expires']} />
            <tbody>
              {pending.map((i) => (
                <tr key={i.id}>
                  <th scope="row">{i.email ? <span className="address">{i.email}</span> : 'Anyone with the link'}</th>
                  <td>
                    <span className={`badge role-${i.role}`}>{i.role}</span>
                  </td>
                  <td>{when(i.expiresAt)}</td>
                  <td className="row-actions">
                    <button type="button" className="danger small" onClick={() => act.run(() => revoke(i))}>
                      Revoke<span className="visually-hidden"> the invitation for {i.email ?? `a ${i.role}`}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
