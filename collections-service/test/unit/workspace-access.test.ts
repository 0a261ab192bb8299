import { NotAllowedError } from '@skills/common';
import type { WorkspaceRole } from '../../src/domain/model';
import { assertWorkspaceAccess, type WorkspaceAction } from '../../src/domain/workspace-access';

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
    expect([outcome(role, 'read'), outcome(role, 'create'), outcome(role, 'update'), outcome(role, 'delete', ctx)]).toEqual([
      read,
      create,
      update,
      del,
    ]);
  });

  it('refuses every action to a non-member with workspace.noAccess', () => {
    for (const action of ['read', 'create', 'update', 'delete'] as const) {
      expect(outcome(null, action, { accountId: 'a', createdBy: 'a' })).toBe('workspace.noAccess');
    }
  });

  it('lets the creator delete whatever their role', () => {
    expect(outcome('member', 'delete', { accountId: 'a', createdBy: 'a' })).toBe('allowed');
    expect(outcome('viewer', 'delete', { accountId: 'a', createdBy: 'a' })).toBe('allowed');
  });

  it('does not treat a missing creator as a match', () => {
    expect(outcome('viewer', 'delete', {})).toBe('workspace.roleTooLow');
  });
});
