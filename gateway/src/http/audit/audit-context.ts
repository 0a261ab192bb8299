import type { Request, Response } from 'express';
import { contextOf, type Principal } from '@skills/common';
import type { AuditActor, AuditContext } from '../../domain/audit/audit';
import { clientAddress } from '../client-address';

export function actorOf(principal: Principal | undefined): AuditActor {
  if (!principal) return { kind: 'anonymous' };
  if (principal.kind === 'admin') return { kind: 'admin' };
  if (principal.kind === 'scanner') return { kind: 'scanner', scannerId: principal.scannerId };
  return { kind: 'account', accountId: principal.accountId };
}

/** Who is acting in this request, for the audit trail: the actor, the request id, the client's address. */
export function auditContextOf(req: Request, res: Response, actor: AuditActor): AuditContext {
  return { actor, requestId: contextOf(res).requestId, clientAddress: clientAddress(req) };
}
