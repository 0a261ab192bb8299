import { NotAllowedError } from '@skills/common';
import type { WorkspaceRole } from '@skills/common/workspace-roles';
import {
  assertKeepsAnOwner,
  assertMayManageInvitations,
  assertMayRemoveMember,
  assertMaySetRole,
  assertWorkspaceAccess,
  inviterMayStillGrant,
  type WorkspaceAction,
} from '../../src/domain/workspace-access';

function outcome(role: WorkspaceRole | null, action: WorkspaceAction, context = {}): string {
  try {
    assertWorkspaceAccess(role, action, context);
    return 'allowed';
  } catch (err) {
    expect(err).toBeInstanceOf(NotAllowedError);
    return (err as NotAllowedError).messageKey;
  }
}

describe('assertWorkspaceAccess', () => {
  it.each([
    // role, read, create, update, delete (not the creator)
    ['owner', 'allowed', 'allowed', 'allowed', 'allowed'],
    ['admin', 'allowed', 'allowed', 'allowed', 'allowed'],
    ['member', 'allowed', 'allowed', 'allowed', 'workspace.roleTooLow'],
    ['viewer', 'allowed', 'workspace.roleTooLow', 'workspace.roleTooLow', 'workspace.roleTooLow'],
  ] as const)('%s: read %s, create %s, update %s, delete %s', (role, read, create, update, del) => {
    const ctx = { accountId: 'a', createdBy: 'b' };
    expect([
      outcome(role, 'read'),
      outcome(role, 'create'),
      outcome(role, 'update'),
      outcome(role, 'delete', ctx),
    ]).toEqual([read, create, update, del]);
  });

  it('refuses every action to a non-member with workspace.noAccess', () => {
    for (const action of ['read', 'create', 'update', 'delete'] as const) {
      expect(outcome(null, action, { accountId: 'a', createdBy: 'a' })).toBe('workspace.noAccess');
    }
  });

  it('lets a member delete what they created, and a viewer nothing, not even what they created before a demotion', () => {
    expect(outcome('member', 'delete', { accountId: 'a', createdBy: 'a' })).toBe('allowed');
    expect(outcome('viewer', 'delete', { accountId: 'a', createdBy: 'a' })).toBe('workspace.roleTooLow');
  });

  it('does not treat a missing creator as a match', () => {
    expect(outcome('viewer', 'delete', {})).toBe('workspace.roleTooLow');
  });
});

describe('assertMayRemoveMember', () => {
  const outcomeOf = (run: () => void): string => {
    try {
      run();
      return 'allowed';
    } catch (err) {
      return (err as NotAllowedError).messageKey;
    }
  };

  it.each([
    // caller, removing an owner, an admin, a member, a viewer
    ['owner', 'allowed', 'allowed', 'allowed', 'allowed'],
    ['admin', 'workspace.roleTooLow', 'allowed', 'allowed', 'allowed'],
    ['member', 'workspace.roleTooLow', 'workspace.roleTooLow', 'workspace.roleTooLow', 'workspace.roleTooLow'],
    ['viewer', 'workspace.roleTooLow', 'workspace.roleTooLow', 'workspace.roleTooLow', 'workspace.roleTooLow'],
  ] as const)('%s removes an owner: %s, an admin: %s, a member: %s, a viewer: %s', (caller, ...expected) => {
    const targets = ['owner', 'admin', 'member', 'viewer'] as const;
    expect(targets.map((target) => outcomeOf(() => assertMayRemoveMember(caller, target, false)))).toEqual(expected);
  });

  it('lets every role leave', () => {
    for (const role of ['owner', 'admin', 'member', 'viewer'] as const)
      expect(outcomeOf(() => assertMayRemoveMember(role, role, true))).toBe('allowed');
  });

  it('keeps the last owner: removing or demoting them is a conflict, another owner may go', () => {
    expect(outcomeOf(() => assertKeepsAnOwner('owner', null, 1))).toBe('workspace.lastOwner');
    expect(outcomeOf(() => assertKeepsAnOwner('owner', 'admin', 1))).toBe('workspace.lastOwner');
    expect(outcomeOf(() => assertKeepsAnOwner('owner', 'owner', 1))).toBe('allowed');
    expect(outcomeOf(() => assertKeepsAnOwner('owner', null, 2))).toBe('allowed');
    expect(outcomeOf(() => assertKeepsAnOwner('member', null, 1))).toBe('allowed');
  });
});

describe('assertMaySetRole', () => {
  const ROLES: readonly WorkspaceRole[] = ['owner', 'admin', 'member', 'viewer'];
  /** the roles `caller` may give to a member whose role is `target` */
  const allowed = (caller: WorkspaceRole, target: WorkspaceRole) =>
    ROLES.filter((role) => {
      try {
        assertMaySetRole(caller, target, role);
        return true;
      } catch (err) {
        expect(err).toMatchObject({ messageKey: 'workspace.roleTooLow' });
        return false;
      }
    });

  it('lets an owner give any role to anyone', () => {
    for (const target of ROLES) expect(allowed('owner', target)).toEqual(ROLES);
  });

  it('lets an admin move admins, members and viewers among those three, never to or from owner', () => {
    for (const target of ['admin', 'member', 'viewer'] as const)
      expect(allowed('admin', target)).toEqual(['admin', 'member', 'viewer']);
    expect(allowed('admin', 'owner')).toEqual([]);
  });

  it('lets members and viewers change no role', () => {
    for (const caller of ['member', 'viewer'] as const)
      for (const target of ROLES) expect(allowed(caller, target)).toEqual([]);
  });
});

describe('assertMayManageInvitations', () => {
  it('is for owners and admins: members and viewers are too low, others have no access', () => {
    const outcomeOf = (role: WorkspaceRole | null) => {
      try {
        assertMayManageInvitations(role);
        return 'allowed';
      } catch (err) {
        return (err as NotAllowedError).messageKey;
      }
    };
    expect([null, 'owner', 'admin', 'member', 'viewer'].map((r) => outcomeOf(r as WorkspaceRole | null))).toEqual([
      'workspace.noAccess',
      'allowed',
      'allowed',
      'workspace.roleTooLow',
      'workspace.roleTooLow',
    ]);
  });
});

describe('inviterMayStillGrant', () => {
  const ROLES: readonly WorkspaceRole[] = ['owner', 'admin', 'member', 'viewer'];
  const passes = (check: () => void) => {
    try {
      check();
      return true;
    } catch {
      return false;
    }
  };

  it('holds exactly when the inviter may still manage invitations and give that role to a newcomer', () => {
    for (const inviter of [null, ...ROLES] as Array<WorkspaceRole | null>) {
      for (const invited of ROLES) {
        // a newcomer is no owner: as the role rules treat a member moved to `invited`
        const reference =
          passes(() => assertMayManageInvitations(inviter)) &&
          passes(() => assertMaySetRole(inviter as WorkspaceRole, 'member', invited));
        expect([inviter, invited, inviterMayStillGrant(inviter, invited)]).toEqual([inviter, invited, reference]);
      }
    }
  });

  it("drops a removed or demoted admin's links and keeps an owner-turned-admin's", () => {
    expect(inviterMayStillGrant(null, 'viewer')).toBe(false);
    expect(inviterMayStillGrant('member', 'viewer')).toBe(false);
    expect(inviterMayStillGrant('admin', 'admin')).toBe(true);
  });
});
