/**
 * The audit record of a proxied write (route-table.ts `audit`), written by
 * the gateway once the service has answered it with success. The service's
 * own transaction is not the gateway's: the record follows the answer, and
 * a gateway that dies in between loses it (the service's log keeps the
 * request id).
 */
import type { Request, Response } from 'express';
import type { Logger, Principal } from '@skills/common';
import type { AuditDetails, AuditLog } from '../../domain/audit/audit';
import { actorOf, auditContextOf } from '../audit/audit-context';
import type { ProxyRoute } from './route-table';

function detailsOf(body: string | Buffer | undefined, fields: readonly string[]): AuditDetails {
  if (body === undefined || fields.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString());
  } catch {
    return {};
  }
  const out: AuditDetails = {};
  if (parsed === null || typeof parsed !== 'object') return out;
  for (const field of fields) {
    const value = (parsed as Record<string, unknown>)[field];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[field] = value;
  }
  return out;
}

function paramsOf(params: Record<string, string>, fields: readonly string[]): AuditDetails {
  const out: AuditDetails = {};
  for (const field of fields) if (params[field] !== undefined) out[field] = params[field];
  return out;
}

export interface ProxiedWrite {
  route: ProxyRoute;
  params: Record<string, string>;
  principal: Principal;
  /** the JSON body forwarded, when it was read */
  body: string | Buffer | undefined;
}

/** Appends the record when the route is audited and the answer was a success; a failed write is logged. */
export async function auditProxiedWrite(
  audit: AuditLog,
  logger: Logger,
  req: Request,
  res: Response,
  write: ProxiedWrite,
): Promise<void> {
  const spec = write.route.audit;
  if (!spec || res.statusCode >= 400) return;
  const check = write.route.accountCheck;
  const bodyAccount = check?.from === 'body' ? detailsOf(write.body, [check.field])[check.field] : undefined;
  const targetAccountId = spec.targetAccount !== undefined ? write.params[spec.targetAccount] : bodyAccount;
  try {
    await audit.append({
      ...auditContextOf(req, res, actorOf(write.principal)),
      action: spec.action,
      target: spec.target !== undefined ? (write.params[spec.target] ?? null) : null,
      // `me` names the caller
      targetAccountId:
        targetAccountId === 'me' && write.principal.kind === 'account'
          ? write.principal.accountId
          : ((targetAccountId as string | undefined) ?? null),
      details: {
        ...paramsOf(write.params, spec.paramFields ?? []),
        ...detailsOf(write.body, spec.bodyFields ?? []),
        status: res.statusCode,
      },
    });
  } catch (err) {
    logger.error({ err, action: spec.action }, 'could not write the audit record of a proxied write');
  }
}
