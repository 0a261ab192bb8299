/** What the console offers each workspace role: the shared rules collections-service enforces, under the names pages use. */
import {
  INVITABLE,
  ROLES,
  assignableRoles,
  canDelete,
  canGovern,
  canInvite,
  canRemove,
  canUpdatePins,
  canWrite,
  teamCollectionRights,
} from '../../src/roles';

describe('console roles', () => {
  it('lets every role but viewer write and update pins', () => {
    expect(ROLES.filter(canWrite)).toEqual(['owner', 'admin', 'member']);
    expect(ROLES.filter(canUpdatePins)).toEqual(['owner', 'admin', 'member']);
  });

  it('lets owners and admins delete any collection, a member only its own, a viewer none', () => {
    expect(ROLES.map((role) => canDelete(role, 'me', 'someone-else'))).toEqual([true, true, false, false]);
    expect(ROLES.map((role) => canDelete(role, 'me', 'me'))).toEqual([true, true, true, false]);
    expect(canDelete('member', 'me', undefined)).toBe(false);
  });

  it('lets only owners and admins govern and invite, and never invite an owner', () => {
    expect(ROLES.filter(canGovern)).toEqual(['owner', 'admin']);
    expect(ROLES.filter(canInvite)).toEqual(['owner', 'admin']);
    expect(INVITABLE).toEqual(['admin', 'member', 'viewer']);
  });

  it('offers an admin every role but owner, and nothing on an owner', () => {
    expect(assignableRoles('owner', 'owner')).toEqual(['owner', 'admin', 'member', 'viewer']);
    expect(assignableRoles('admin', 'member')).toEqual(['admin', 'member', 'viewer']);
    expect(assignableRoles('admin', 'owner')).toEqual([]);
    expect(assignableRoles('member', 'viewer')).toEqual([]);
  });

  it('lets an owner remove anyone, an admin anyone but an owner, others no one', () => {
    expect(ROLES.map((target) => canRemove('admin', target))).toEqual([false, true, true, true]);
    expect(ROLES.map((target) => canRemove('owner', target))).toEqual([true, true, true, true]);
    expect(ROLES.some((target) => canRemove('member', target) || canRemove('viewer', target))).toBe(false);
  });

  it('enables on a team collection what the role may do, and says why the rest is off', () => {
    expect(teamCollectionRights('viewer', 'me', 'me')).toEqual({
      edit: false,
      updatePins: false,
      delete: false,
      why: 'You are a viewer in this workspace: you can read this collection, not change or delete it.',
    });
    expect(teamCollectionRights('member', 'me', 'someone-else')).toEqual({
      edit: true,
      updatePins: true,
      delete: false,
      why: 'Members delete only the collections they created; an owner or admin can delete this one.',
    });
    expect(teamCollectionRights('member', 'me', 'me')).toEqual({
      edit: true,
      updatePins: true,
      delete: true,
      why: undefined,
    });
    expect(ROLES.filter((role) => teamCollectionRights(role, 'me', 'someone-else').delete)).toEqual(['owner', 'admin']);
  });
});
