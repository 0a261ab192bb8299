/**
 * The provider identities linked to an account, as its owner lists and
 * removes them from the profile: each is a way into the account, so its
 * owner sees every one (one linked by someone who held a session cookie
 * included) and can take it away; the last way in is kept.
 */
import { ConflictError, NotFoundError, isUuid } from '@skills/common';
import { authEvent, type AuthRequest } from '../audit/auth-audit';
import type { IdentityStore, LinkedIdentity } from '../sign-in/credentials';

export class LinkedIdentities {
  constructor(private readonly store: IdentityStore) {}

  list(accountId: string): Promise<LinkedIdentity[]> {
    return this.store.list(accountId);
  }

  /** 404 for an identity the account does not have; 409 when it is the account's only way to sign in (no password). */
  async remove(accountId: string, identityId: string, from: AuthRequest): Promise<void> {
    if (!isUuid(identityId)) throw new NotFoundError('identity.notFound');
    const record = (identity: LinkedIdentity) => ({
      ...authEvent(from, 'auth.oidc_unlink', accountId, { subject: identity.subject, reason: 'profile' }),
      target: identity.issuer,
    });
    const result = await this.store.unlink(accountId, identityId, record);
    if (result === 'notFound') throw new NotFoundError('identity.notFound');
    if (result === 'lastSignIn') throw new ConflictError('identity.lastSignIn');
  }
}
