/**
 * The members of a workspace with their roles: a role can be changed and a
 * member removed only where the caller's role allows it (roles.ts); the
 * services decide, and their refusal (the last owner, say) is shown as is.
 */
import { useState } from 'react';
import { client, type Member, type Role } from '../api';
import { day } from '../format';
import { useAction } from '../hooks';
import { assignableRoles, canRemove } from '../roles';
import { ConfirmDialog } from './confirm-dialog';
import { Outcome } from './form';
import { TableHead } from './table-head';

const who = (m: Member) => m.name ?? m.email ?? m.accountId;

export function Members(props: {
  workspaceId: string;
  me: string;
  myRole: Role;
  members: Member[];
  onChanged(): void;
}) {
  const { workspaceId, me, myRole, members } = props;
  const [removing, setRemoving] = useState<Member>();
  const act = useAction(
    async (write: () => Promise<unknown>, done: string) => {
      await write();
      props.onChanged();
      return done;
    },
    { queue: true },
  );

  return (
    <>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Members and their roles</caption>
          <TableHead columns={['Member', 'Role', 'Joined']} />
          <tbody>
            {members.map((m) => {
              const self = m.accountId === me;
              const roles = self ? [] : assignableRoles(myRole, m.role);
              return (
                <tr key={m.accountId}>
                  <th scope="row">
                    <span className="address">{who(m)}</span> {self && <span className="badge">you</span>}
                    {m.name && m.email && <div className="hint address">{m.email}</div>}
                  </th>
                  <td>
                    {roles.length > 0 ? (
                      <select
                        aria-label={`Role of ${who(m)}`}
                        value={m.role}
                        onChange={(e) => {
                          const role = e.target.value as Role;
                          void act.run(
                            () => client.setWorkspaceMemberRole(workspaceId, m.accountId, role),
                            `${who(m)} is now ${role}.`,
                          );
                        }}
                      >
                        {roles.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <span className={`badge role-${m.role}`}>{m.role}</span>
                    )}
                  </td>
                  <td>{day(m.joinedAt)}</td>
                  <td className="row-actions">
                    {!self && canRemove(myRole, m.role) && (
                      <button type="button" className="danger small" onClick={() => setRemoving(m)}>
                        Remove<span className="visually-hidden"> {who(m)}</span>
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Outcome of={act} />
      <ConfirmDialog
        open={removing !== undefined}
        title={`Remove ${removing ? who(removing) : ''} from the workspace?`}
        confirmLabel="Remove member"
        onConfirm={() => {
          const target = removing;
          setRemoving(undefined);
          if (target)
            void act.run(
              () => client.removeWorkspaceMember(workspaceId, target.accountId),
              `${who(target)} was removed: their access ended.`,
            );
        }}
        onCancel={() => setRemoving(undefined)}
      >
        <p>They lose access at once. The collections they created stay in the workspace.</p>
      </ConfirmDialog>
    </>
  );
}
