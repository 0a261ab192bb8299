/**
 * The two browser navigations of an OpenID Connect sign-in: start (redirect
 * to the provider) and callback (back from it). They answer with redirects,
 * not JSON: on failure the sign-in page shows its text for the error code it is given. Linking
 * and re-authenticating start from a signed-in session (POST, Origin, CSRF).
 */
import { Router, type Request, type Response } from 'express';
import { AppError, NotFoundError, methodNotAllowed, type Logger } from '@skills/common';
import type { SessionService } from '../../domain/sessions/session.service';
import { SESSION_COOKIE, type CookieJar } from '../sessions/session-cookie';
import type { SessionGate } from '../sessions/session-gate';
import type { Site } from '../../domain/site';
import { authRequestOf } from '../sign-in/auth-request';
import { OIDC_FLOW_TTL_MS, type OidcService } from '../../domain/oidc/oidc.service';
import type { SignInThrottle } from '../../domain/limits/sign-in-throttle';

const FLOW_COOKIE = 'skills_oidc';

export function oidcRoutes(deps: {
  oidc?: OidcService;
  sessions: SessionService;
  gate: SessionGate;
  cookies: CookieJar;
  site: Site;
  logger: Logger;
  throttle: SignInThrottle;
}): Router {
  const router = Router();

  const fail = (res: Response, err: unknown) => {
    if (!(err instanceof AppError) || err.status >= 500) deps.logger.error({ err }, 'OpenID Connect sign-in failed');
    // The key, not its text: the console shows its own words for a code, so a crafted link cannot put words on its page.
    const key = err instanceof AppError ? err.messageKey : 'oidc.failed';
    res.redirect(303, `/console/sign-in#error=${encodeURIComponent(key)}`);
  };

  router
    .route('/api/v1/auth/oidc/start')
    .get(async (req: Request, res: Response) => {
      if (!deps.oidc) throw new NotFoundError('oidc.notConfigured');
      // Each start stores a flow until it expires: counted per client address before anything is stored.
      await deps.throttle.beginOidcStart(authRequestOf(req, res).clientAddress);
      try {
        const { url, state } = await deps.oidc.start();
        deps.cookies.set(res, FLOW_COOKIE, state, OIDC_FLOW_TTL_MS);
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(303, url);
      } catch (err) {
        fail(res, err);
      }
    })
    .all(methodNotAllowed(['GET']));

  // Linking the provider to the signed-in account, or re-authenticating its session: state changes (session,
  // Origin, CSRF), so POSTs that answer the provider's URL for the page to open, never a link a foreign page
  // could send a browser to.
  for (const purpose of ['link', 'reauthenticate'] as const) {
    router
      .route(`/api/v1/auth/oidc/${purpose}`)
      .post(async (req: Request, res: Response) => {
        if (!deps.oidc) throw new NotFoundError('oidc.notConfigured');
        const current = await deps.gate.require(req);
        await deps.throttle.beginOidcStart(authRequestOf(req, res).clientAddress);
        const { url, state } = await deps.oidc.start({
          accountId: current.account.id,
          session: current.session,
          purpose,
        });
        deps.cookies.set(res, FLOW_COOKIE, state, OIDC_FLOW_TTL_MS);
        res.setHeader('Cache-Control', 'no-store');
        res.json({ data: { url } });
      })
      .all(methodNotAllowed(['POST']));
  }

  router
    .route('/api/v1/auth/oidc/callback')
    .get(async (req: Request, res: Response) => {
      if (!deps.oidc) throw new NotFoundError('oidc.notConfigured');
      const state = deps.cookies.read(req, FLOW_COOKIE);
      deps.cookies.clear(res, FLOW_COOKIE);
      try {
        const current = await deps.gate.current(req);
        const signedIn = current ? { accountId: current.account.id, session: current.session } : undefined;
        const done = await deps.oidc.finish(
          new URL(deps.site.link(req.originalUrl)),
          state,
          authRequestOf(req, res),
          signedIn,
        );
        res.setHeader('Cache-Control', 'no-store');
        if (done.kind === 'linked') {
          res.redirect(303, '/console/profile');
          return;
        }
        // back where a key change asked for it, to try it again
        if (done.kind === 'reauthenticated') {
          res.redirect(303, '/console/keys');
          return;
        }
        deps.cookies.set(
          res,
          SESSION_COOKIE,
          done.opened.token,
          done.opened.session.expiresAt - done.opened.session.createdAt,
        );
        res.redirect(303, '/console/');
      } catch (err) {
        fail(res, err);
      }
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
