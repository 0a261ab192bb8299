/**
 * Signing in without a session yet: the options the sign-in page shows,
 * sign-up, sign-in with a password, one-time links and password reset.
 * Each is a state change made from a page, so the request must come from
 * this site (Origin), which stops a foreign page from signing a browser
 * into another account (login CSRF).
 */
import { Router, type Request, type Response } from 'express';
import Joi from 'joi';
import { NotAllowedError, NotFoundError, displayText, jsonBody, methodNotAllowed, negotiateLanguage, validate, type Logger } from '@skills/common';
import { ACCOUNT_NAME_MAX } from '../domain/account';
import type { SessionService } from '../domain/session.service';
import type { CookieJar } from './session-cookie';
import type { SessionGate } from './session-gate';
import { sendOpened } from './session-view';
import type { Site } from '../domain/site';
import { authRequestOf } from './auth-request';
import { AccountMail } from '../domain/account-mail';
import type { Mailer } from '../mail/mailer';
import { PASSWORD_MAX_LENGTH } from '../domain/password-policy';
import type { SignInService } from '../domain/sign-in.service';
import type { SignUpService } from '../domain/sign-up.service';

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

const email = Joi.string().trim().email({ tlds: false }).max(254).required();
// The policy's minimum is checked by checkPassword, with its own message; this only bounds the size.
const password = Joi.string().min(1).max(PASSWORD_MAX_LENGTH).required();
const token = Joi.string().max(100).required();
const signUpSchema = Joi.object<{ email: string; password: string; name?: string; invitation?: string }>({
  email,
  password,
  name: displayText().trim().min(1).max(ACCOUNT_NAME_MAX),
  invitation: Joi.string().max(100),
});
const signInSchema = Joi.object<{ email: string; password: string }>({ email, password });
const linkSchema = Joi.object<{ token: string }>({ token });
// The password is the verification's to judge (after the link): a dead link says so, whatever is typed.
const verifySchema = Joi.object<{ token: string; password?: string }>({ token, password: Joi.string().max(PASSWORD_MAX_LENGTH) });
const resetSchema = Joi.object<{ token: string; password: string; revokeApiKeys: boolean; unlinkIdentities: boolean }>({
  token,
  password,
  revokeApiKeys: Joi.boolean().default(false),
  unlinkIdentities: Joi.boolean().default(false),
});
const resetRequestSchema = Joi.object<{ email: string }>({ email });

export function authRoutes(deps: AuthRoutesDeps): Router {
  const router = Router();
  const body = jsonBody();
  const { signIn, signUp, gate } = deps;
  const mail = new AccountMail(deps);
  const languageOf = (req: Request) => negotiateLanguage(req.get('accept-language'));

  router
    .route('/api/v1/auth/options')
    .get((_req: Request, res: Response) => {
      const oidc = deps.oidcName === undefined ? null : { name: deps.oidcName, startUrl: '/api/v1/auth/oidc/start' };
      res.json({ data: { signUpMode: signUp.mode, passwordResetByMail: deps.mailer !== undefined, oidc } });
    })
    .all(methodNotAllowed(['GET']));

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
      mail.afterAnswer('sign-up', async () => mail.signUpFinished(await signUp.complete(pending, from), languageOf(req)));
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/api/v1/auth/sign-in')
    .post(body, async (req: Request, res: Response) => {
      gate.checkOrigin(req);
      const input = validate(signInSchema, req.body ?? {});
      const done = await signIn.signIn(input, authRequestOf(req, res));
      if (done.kind === 'signedIn') return sendOpened(res, deps, done.account, done.opened);
      // The right password of an address not verified yet: no session; the address gets a new link.
      const { account, verification } = done;
      if (verification) mail.afterAnswer('verification', () => mail.verification(account, verification, languageOf(req)));
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
      mail.afterAnswer('password reset request', async () => mail.resetRequested(await signIn.resetLinkFor(input.email, from), languageOf(req)));
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
