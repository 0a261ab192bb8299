/**
 * Signing in without a session yet: the options the sign-in page shows,
 * sign-up, sign-in with a password, one-time links and password reset.
 * Each is a state change made from a page, so the request must come from
 * this site (Origin), which stops a foreign page from signing a browser
 * into another account (login CSRF).
 */
import { Router, type Request, type Response } from 'express';
import {
  NotAllowedError,
  NotFoundError,
  jsonBody,
  methodNotAllowed,
  negotiateLanguage,
  validate,
  type Logger,
} from '@skills/common';
import type { SessionService } from '../../domain/sessions/session.service';
import type { CookieJar } from '../sessions/session-cookie';
import type { SessionGate } from '../sessions/session-gate';
import { sendOpened } from '../sessions/session-view';
import type { Site } from '../../domain/site';
import { authRequestOf } from './auth-request';
import { AccountMail } from '../../domain/sign-in/account-mail';
import type { Mailer } from '../../mail/mailer';
import type { SignInService } from '../../domain/sign-in/sign-in.service';
import type { SignUpService } from '../../domain/sign-in/sign-up.service';
import { linkSchema, resetRequestSchema, resetSchema, signInSchema, signUpSchema, verifySchema } from './auth.schemas';

export interface AuthRoutesDeps {
  signIn: SignInService;
  signUp: SignUpService;
  sessions: SessionService;
  gate: SessionGate;
  cookies: CookieJar;
  site: Site;
  logger: Logger;
  /** none: password reset by mail is off */
  mailer?: Mailer;
  /** the provider's name on the sign-in button; none: OpenID Connect is off */
  oidcName?: string;
}

/** What each group of routes below is built from. */
interface AuthRoutes {
  router: Router;
  deps: AuthRoutesDeps;
  body: ReturnType<typeof jsonBody>;
  mail: AccountMail;
}

const languageOf = (req: Request) => negotiateLanguage(req.get('accept-language'));

export function authRoutes(deps: AuthRoutesDeps): Router {
  const routes: AuthRoutes = { router: Router(), deps, body: jsonBody(), mail: new AccountMail(deps) };
  routes.router
    .route('/api/v1/auth/options')
    .get((_req: Request, res: Response) => {
      const oidc = deps.oidcName === undefined ? null : { name: deps.oidcName, startUrl: '/api/v1/auth/oidc/start' };
      res.json({ data: { signUpMode: deps.signUp.mode, passwordResetByMail: deps.mailer !== undefined, oidc } });
    })
    .all(methodNotAllowed(['GET']));
  signUpRoute(routes);
  signInRoutes(routes);
  passwordRoutes(routes);
  return routes.router;
}

function signUpRoute({ router, deps, body, mail }: AuthRoutes): void {
  const { signUp, gate } = deps;
  // The same answer for a new and a taken address, given before the lookup: the rest happens after (account-mail.ts).
  router
    .route('/api/v1/auth/sign-up')
    .post(body, async (req: Request, res: Response) => {
      gate.checkOrigin(req);
      const input = validate(signUpSchema, req.body ?? {});
      const from = authRequestOf(req, res);
      const pending = await signUp.prepare({ ...input, name: input.name ?? null }, from);
      res.setHeader('Cache-Control', 'no-store');
      res.status(202).json({ data: { requested: true } });
      mail.afterAnswer('sign-up', async () =>
        mail.signUpFinished(await signUp.complete(pending, from), languageOf(req)),
      );
    })
    .all(methodNotAllowed(['POST']));
}

/** A password, or a one-time sign-in link. */
function signInRoutes({ router, deps, body, mail }: AuthRoutes): void {
  const { signIn, gate } = deps;
  router
    .route('/api/v1/auth/sign-in')
    .post(body, async (req: Request, res: Response) => {
      gate.checkOrigin(req);
      const input = validate(signInSchema, req.body ?? {});
      const done = await signIn.signIn(input, authRequestOf(req, res));
      if (done.kind === 'signedIn') return sendOpened(res, deps, done.account, done.opened);
      // The right password of an address not verified yet: no session; the address gets a new link.
      const { account, verification } = done;
      if (verification)
        mail.afterAnswer('verification', () => mail.verification(account, verification, languageOf(req)));
      throw new NotAllowedError(verification ? 'signIn.unverified' : 'signIn.unverifiedNoMail');
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/api/v1/auth/sign-in-link')
    .post(body, async (req: Request, res: Response) => {
      gate.checkOrigin(req);
      const input = validate(linkSchema, req.body ?? {});
      const { account, opened } = await signIn.redeemSignInLink(input.token, authRequestOf(req, res));
      sendOpened(res, deps, account, opened);
    })
    .all(methodNotAllowed(['POST']));
}

/** Setting a password from a mailed link: a reset, an address verified, and asking for a reset link. */
function passwordRoutes({ router, deps, body, mail }: AuthRoutes): void {
  const { signIn, gate } = deps;
  router
    .route('/api/v1/auth/password-reset')
    .post(body, async (req: Request, res: Response) => {
      gate.checkOrigin(req);
      const { token: link, password: chosen, ...choices } = validate(resetSchema, req.body ?? {});
      const { account, opened } = await signIn.resetPassword(link, chosen, choices, authRequestOf(req, res));
      sendOpened(res, deps, account, opened);
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/api/v1/auth/verify-email')
    .post(body, async (req: Request, res: Response) => {
      gate.checkOrigin(req);
      const input = validate(verifySchema, req.body ?? {});
      const { account, opened } = await signIn.verifyEmail(input.token, input.password, authRequestOf(req, res));
      sendOpened(res, deps, account, opened);
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/api/v1/auth/password-reset-request')
    .post(body, async (req: Request, res: Response) => {
      gate.checkOrigin(req);
      const { mailer } = deps;
      if (!mailer) throw new NotFoundError('mail.notConfigured');
      const input = validate(resetRequestSchema, req.body ?? {});
      const from = authRequestOf(req, res);
      // Throttled and counted for any address typed, known or not: a 429 says nothing about who has an account.
      await signIn.beginResetRequest(input.email, from);
      // The same answer whether the address has an account or not, given before the lookup: nothing to learn from it.
      res.status(202).json({ data: { requested: true } });
      mail.afterAnswer('password reset request', async () =>
        mail.resetRequested(await signIn.resetLinkFor(input.email, from), languageOf(req)),
      );
    })
    .all(methodNotAllowed(['POST']));
}
