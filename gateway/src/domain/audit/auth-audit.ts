/**
 * The audit records of a console account's authentication events: who, the
 * request id, the client's address and user agent, and what happened. A
 * record never holds a password, a token, a link's secret or a PKCE
 * verifier: only the account's id and the kind of event.
 */
import type { AuditAction, AuditActor, AuditDetails, AuditEvent } from './audit';
import type { Removal } from '../sign-in/credentials';

/** Sent by the client, so bounded: a user agent is evidence, not a place to store a megabyte. */
export const USER_AGENT_MAX = 256;

/** The request an authentication event comes from. */
export interface AuthRequest {
  requestId: string;
  clientAddress: string;
  userAgent?: string;
}

/** A record of `action` concerning `accountId`, acted by that account unless `actor` says otherwise (an operator). */
export function authEvent(
  from: AuthRequest,
  action: AuditAction,
  accountId: string,
  details: AuditDetails = {},
  actor?: AuditActor,
): AuditEvent {
  return {
    action,
    actor: actor ?? { kind: 'account', accountId },
    requestId: from.requestId,
    clientAddress: from.clientAddress,
    targetAccountId: accountId,
    details: { ...details, ...(from.userAgent === undefined ? {} : { userAgent: from.userAgent }) },
  };
}

/** Why a change of credentials removed sessions, keys or identities: recorded with each removal. */
export type RemovalReason = 'email_verified' | 'password_reset' | 'password_change';

/** The record of each session, key or identity a change of credentials removed, acted by the account that changed them. */
export function removalEvents(from: AuthRequest, reason: RemovalReason): (removal: Removal) => AuditEvent {
  return (removal) => ({
    ...authEvent(from, removal.action, removal.accountId, { ...removal.details, reason }),
    target: removal.target,
  });
}
