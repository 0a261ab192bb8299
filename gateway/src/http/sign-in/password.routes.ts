/**
 * A signed-in person's password: change it (the current one first), or
 * enter it again before a sensitive act (creating or rolling an API key).
 * Session only, with Origin and CSRF, as every state change of a session.
 */
import { Router, type Request, type Response } from 'express';
import { jsonBody, methodNotAllowed, validate } from '@skills/common';
import type { AuditLog } from '../../domain/audit/audit';
import type { SessionService } from '../../domain/sessions/session.service';
import type { SessionGate } from '../sessions/session-gate';
import { signedInView } from '../sessions/session-view';
import { requireSession } from '../sessions/sessions.routes';
import { authEvent } from '../../domain/audit/auth-audit';
import { authRequestOf } from './auth-request';
import type { SignInService } from '../../domain/sign-in/sign-in.service';
import { changePasswordSchema, reauthSchema } from './password.schemas';

export function passwordRoutes(deps: {
  gate: SessionGate;
  sessions: SessionService;
  signIn: SignInService;
  audit: AuditLog;
}): Router {
  const router = Router();
  const body = jsonBody();
  const { gate, sessions, signIn } = deps;

  router
    .route('/api/v1/auth/password')
    .post(body, async (req: Request, res: Response) => {
      const { account, session } = await requireSession(gate, req);
      const input = validate(changePasswordSchema, req.body ?? {});
      const { revokedApiKeys } = await signIn.changePassword(account, session.id, input, authRequestOf(req, res));
      await sessions.markAuthenticated(session);
      res.setHeader('Cache-Control', 'no-store');
      res.json({ data: { changed: true, revokedApiKeys } });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/api/v1/auth/reauthenticate')
    .post(body, async (req: Request, res: Response) => {
      const { account, session, token } = await requireSession(gate, req);
      const input = validate(reauthSchema, req.body ?? {});
      const from = authRequestOf(req, res);
      await signIn.verifyCurrent(account, input.password, from);
      const renewed = await sessions.markAuthenticated(session);
      await deps.audit.append(authEvent(from, 'auth.reauthenticate', account.id));
      res.setHeader('Cache-Control', 'no-store');
      res.json({ data: signedInView(sessions, account, token, renewed) });
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
