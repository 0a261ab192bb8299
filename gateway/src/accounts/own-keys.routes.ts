/**
 * The API keys section of the console: a signed-in person lists, creates,
 * revokes and rolls the keys of their own account. Session only: an API key
 * never manages keys (403). Another account's key is 404.
 */
import { Router, type Request, type Response } from 'express';
import { jsonBody, methodNotAllowed, validate } from '@skills/common';
import type { ApiKeyService } from '../domain/api-key.service';
import { ownKeySchema, rollSchema } from '../http/api-key.schemas';
import { auditContextOf } from '../http/audit-context';
import type { SessionGate } from '../sessions/session-gate';
import { requireSession } from '../sessions/sessions.routes';

export function ownKeyRoutes(deps: { gate: SessionGate; keys: ApiKeyService }): Router {
  const router = Router();
  const body = jsonBody();
  const { gate, keys } = deps;
  const keyId = (req: Request) => String(req.params.keyId ?? '');

  router
    .route('/api/v1/me/api-keys')
    .get(async (req: Request, res: Response) => {
      const { account } = await requireSession(gate, req);
      res.setHeader('Cache-Control', 'no-store');
      res.json({ data: { apiKeys: await keys.list(account.id) } });
    })
    .post(body, async (req: Request, res: Response) => {
      const { account } = await requireSession(gate, req);
      const input = validate(ownKeySchema, req.body ?? {});
      const apiKey = await keys.issue(account.id, { ...input, name: input.name ?? null }, auditContextOf(req, res, { kind: 'account', accountId: account.id }));
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
      const { account } = await requireSession(gate, req);
      const input = validate(rollSchema, req.body ?? {});
      const rolled = await keys.roll(keyId(req), input.graceSeconds, auditContextOf(req, res, { kind: 'account', accountId: account.id }), account.id);
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json({ data: rolled });
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
