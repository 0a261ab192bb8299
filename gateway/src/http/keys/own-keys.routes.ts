/**
 * The API keys section of the console: a signed-in person lists, creates,
 * revokes and rolls the keys of their own account. Session only: an API key
 * never manages keys (403). Another account's key is 404.
 */
import { Router, type Request, type Response } from 'express';
import { contextOf, jsonBody, methodNotAllowed, validate } from '@skills/common';
import type { ApiKeyService } from '../../domain/keys/api-key.service';
import { ownKeySchema, rollSchema } from './api-key.schemas';
import { auditContextOf } from '../audit/audit-context';
import type { SessionService } from '../../domain/sessions/session.service';
import type { SessionGate } from '../sessions/session-gate';
import { requireSession } from '../sessions/sessions.routes';
import type { WorkspaceMembership } from '../../domain/workspaces/workspace-membership';

/**
 * Creating or rolling a key also needs a recent sign-in (SessionService.requireRecent): a stolen session
 * cookie alone cannot mint a key that outlives the session.
 */
export function ownKeyRoutes(deps: {
  gate: SessionGate;
  sessions: SessionService;
  keys: ApiKeyService;
  workspaces: WorkspaceMembership;
}): Router {
  const router = Router();
  const body = jsonBody();
  const { gate, keys, sessions } = deps;
  const keyId = (req: Request) => String(req.params.keyId ?? '');

  router
    .route('/api/v1/me/api-keys')
    .get(async (req: Request, res: Response) => {
      const { account } = await requireSession(gate, req);
      res.setHeader('Cache-Control', 'no-store');
      // maxLifetimeDays: the longest lifetime a new key may have (null: keys may also never expire)
      res.json({ data: { apiKeys: await keys.list(account.id), maxLifetimeDays: keys.maxLifetimeDays } });
    })
    .post(body, async (req: Request, res: Response) => {
      const { account, session } = await requireSession(gate, req);
      const input = validate(ownKeySchema, req.body ?? {});
      sessions.requireRecent(session);
      // A bound key: its creator must be a member, asked of collections-service as them (docs/governance.md).
      const workspaceId = typeof input.workspaceId === 'string' ? input.workspaceId.toLowerCase() : null;
      if (workspaceId !== null) {
        const caller = {
          principal: {
            kind: 'account' as const,
            accountId: account.id,
            plan: account.plan,
            keyId: `session:${session.id}`,
          },
          requestId: contextOf(res).requestId,
          language: req.get('accept-language'),
        };
        await deps.workspaces.requireMember(caller, workspaceId);
      }
      const apiKey = await keys.issue(
        account.id,
        { ...input, name: input.name ?? null, workspaceId },
        auditContextOf(req, res, { kind: 'account', accountId: account.id }),
      );
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json({ data: { apiKey } });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/v1/me/api-keys/:keyId')
    .delete(async (req: Request, res: Response) => {
      const { account } = await requireSession(gate, req);
      await keys.revoke(keyId(req), auditContextOf(req, res, { kind: 'account', accountId: account.id }), account.id);
      res.json({ data: { revoked: true } });
    })
    .all(methodNotAllowed(['DELETE']));

  router
    .route('/api/v1/me/api-keys/:keyId/roll')
    .post(body, async (req: Request, res: Response) => {
      const { account, session } = await requireSession(gate, req);
      const input = validate(rollSchema, req.body ?? {});
      sessions.requireRecent(session);
      const rolled = await keys.roll(
        keyId(req),
        input.graceSeconds,
        auditContextOf(req, res, { kind: 'account', accountId: account.id }),
        account.id,
      );
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json({ data: rolled });
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
