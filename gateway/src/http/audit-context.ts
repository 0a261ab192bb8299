import type { Request, Response } from 'express';
import { contextOf, type Principal } from '@skills/common';
import type { AuditActor, AuditContext } from '../domain/audit';
import { clientAddress } from './client-address';

export function actorOf(principal: Principal | undefined): AuditActor {
  if (!principal) return { kind: 'anonymous' };
  if (principal.kind === 'admin') return { kind: 'admin' };
  // TODO(issue 30, gateway helper): a scanner actor of its own in the audit trail
  return principal.kind === 'account' ? { kind: 'account', accountId: principal.accountId } : { kind: 'anonymous' };
}

/** Who is acting in this request, for the audit trail: the actor, the request id, the client's address. */
export function auditContextOf(req: Request, res: Response, actor: AuditActor): AuditContext {
  return { actor, requestId: contextOf(res).requestId, clientAddress: clientAddress(req) };
}
