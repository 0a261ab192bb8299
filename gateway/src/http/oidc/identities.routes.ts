/**
 * The provider identities linked to the signed-in account: list them, remove
 * one. A session only (an API key gets 403); removing is a state change
 * (Origin and CSRF).
 */
import { Router, type Request, type Response } from 'express';
import { methodNotAllowed } from '@skills/common';
import type { LinkedIdentities } from '../../domain/oidc/linked-identities';
import { authRequestOf } from '../sign-in/auth-request';
import type { SessionGate } from '../sessions/session-gate';
import { requireSession } from '../sessions/sessions.routes';

export function identityRoutes(deps: { gate: SessionGate; identities: LinkedIdentities }): Router {
  const router = Router();
  const { gate, identities } = deps;

  router
    .route('/api/v1/me/identities')
    .get(async (req: Request, res: Response) => {
      const { account } = await requireSession(gate, req);
      res.setHeader('Cache-Control', 'no-store');
      res.json({ data: { identities: await identities.list(account.id) } });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/api/v1/me/identities/:identityId')
    .delete(async (req: Request, res: Response) => {
      const { account } = await requireSession(gate, req);
      await identities.remove(account.id, String(req.params.identityId ?? ''), authRequestOf(req, res));
      res.json({ data: { removed: true } });
    })
    .all(methodNotAllowed(['DELETE']));

  return router;
}
