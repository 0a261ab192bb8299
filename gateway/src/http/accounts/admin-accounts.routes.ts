/**
 * What an operator does for a person who cannot yet: a one-time sign-in or
 * password reset link for an account, an invitation to sign up, and signing
 * an account out of every session. Mounted behind requireAdminToken.
 */
import { Router, type Request, type Response } from 'express';
import { NotFoundError, isUuid, jsonBody, methodNotAllowed, validate } from '@skills/common';
import type { SessionService } from '../../domain/sessions/session.service';
import type { Site } from '../../domain/site';
import { authEvent } from '../../domain/audit/auth-audit';
import { authRequestOf } from '../sign-in/auth-request';
import type { AuditLog } from '../../domain/audit/audit';
import type { SignInService } from '../../domain/sign-in/sign-in.service';
import { adminLinkSchema } from './admin-accounts.schemas';

/** Where each link opens in the console; the secret travels in the fragment, which no server or Referer sees. */
export const LINK_PAGES = {
  'sign-in': '/console/link#token=',
  'password-reset': '/console/reset#token=',
  invitation: '/console/sign-up#invitation=',
} as const;

export function adminAccountRoutes(deps: {
  signIn: SignInService;
  sessions: SessionService;
  site: Site;
  audit: AuditLog;
}): Router {
  const router = Router();
  const body = jsonBody();

  router
    .route('/admin/v1/accounts/:id/links')
    .post(body, async (req: Request, res: Response) => {
      const { purpose } = validate(adminLinkSchema, req.body ?? {});
      const link = await deps.signIn.issueLink(purpose, String(req.params.id ?? ''), {
        from: authRequestOf(req, res),
        actor: { kind: 'admin' },
      });
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json({
        data: { link: { purpose, url: deps.site.link(LINK_PAGES[purpose] + link.token), expiresAt: link.expiresAt } },
      });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/admin/v1/invitations')
    .post(async (_req: Request, res: Response) => {
      const link = await deps.signIn.issueLink('invitation', null);
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json({
        data: { invitation: { url: deps.site.link(LINK_PAGES.invitation + link.token), expiresAt: link.expiresAt } },
      });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/admin/v1/accounts/:id/sessions')
    .delete(async (req: Request, res: Response) => {
      const id = String(req.params.id ?? '');
      if (!isUuid(id)) throw new NotFoundError('account.notFound');
      const signedOut = await deps.sessions.endAllBut(id);
      if (signedOut > 0)
        await deps.audit.append(
          authEvent(authRequestOf(req, res), 'auth.sign_out', id, { sessions: signedOut }, { kind: 'admin' }),
        );
      res.json({ data: { signedOut } });
    })
    .all(methodNotAllowed(['DELETE']));

  return router;
}
