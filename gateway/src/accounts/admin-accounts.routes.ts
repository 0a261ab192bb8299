/**
 * What an operator does for a person who cannot yet: a one-time sign-in or
 * password reset link for an account, an invitation to sign up, and signing
 * an account out of every session. Mounted behind requireAdminToken.
 */
import { Router, type Request, type Response } from 'express';
import Joi from 'joi';
import { NotFoundError, isUuid, jsonBody, methodNotAllowed, validate } from '@skills/common';
import type { SessionService } from '../sessions/session.service';
import type { Site } from '../sessions/site';
import type { SignInService } from './sign-in.service';

const linkSchema = Joi.object<{ purpose: 'sign-in' | 'password-reset' }>({
  purpose: Joi.string().valid('sign-in', 'password-reset').required(),
});

/** Where each link opens in the console; the secret travels in the fragment, which no server or Referer sees. */
export const LINK_PAGES = { 'sign-in': '/console/link#token=', 'password-reset': '/console/reset#token=', invitation: '/console/sign-up#invitation=' } as const;

export function adminAccountRoutes(deps: { signIn: SignInService; sessions: SessionService; site: Site }): Router {
  const router = Router();
  const body = jsonBody();

  router
    .route('/admin/v1/accounts/:id/links')
    .post(body, async (req: Request, res: Response) => {
      const { purpose } = validate(linkSchema, req.body ?? {});
      const link = await deps.signIn.issueLink(purpose, String(req.params.id ?? ''));
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json({ data: { link: { purpose, url: deps.site.link(LINK_PAGES[purpose] + link.token), expiresAt: link.expiresAt } } });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/admin/v1/invitations')
    .post(async (_req: Request, res: Response) => {
      const link = await deps.signIn.issueLink('invitation', null);
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json({ data: { invitation: { url: deps.site.link(LINK_PAGES.invitation + link.token), expiresAt: link.expiresAt } } });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/admin/v1/accounts/:id/sessions')
    .delete(async (req: Request, res: Response) => {
      const id = String(req.params.id ?? '');
      if (!isUuid(id)) throw new NotFoundError('account.notFound');
      res.json({ data: { signedOut: await deps.sessions.endAllBut(id) } });
    })
    .all(methodNotAllowed(['DELETE']));

  return router;
}
