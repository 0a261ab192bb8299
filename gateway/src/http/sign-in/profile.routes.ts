/**
 * The profile area's routes as the app mounts them: signing in (password,
 * links, OpenID Connect), sessions, the caller's own API keys and password,
 * the console itself, and apart, the admin links. All disjoint from the
 * proxied routes; what they use is built by sign-in-wiring.ts.
 */
import { Router } from 'express';
import type { ProfileDeps } from '../../sign-in-wiring';
import { adminAccountRoutes } from '../accounts/admin-accounts.routes';
import { authRoutes } from './auth.routes';
import { consoleSite } from './console.routes';
import { identityRoutes } from '../oidc/identities.routes';
import { oidcRoutes } from '../oidc/oidc.routes';
import { ownKeyRoutes } from '../keys/own-keys.routes';
import { passwordRoutes } from './password.routes';
import { sessionRoutes } from '../sessions/sessions.routes';

/** The public routes (auth, session, own keys) and the console; the admin ones are mounted with the admin API. */
export function profileRoutes(deps: ProfileDeps): Router {
  const router = Router();
  router.use(authRoutes({ ...deps, oidcName: deps.oidc?.name }));
  router.use(oidcRoutes(deps));
  router.use(sessionRoutes(deps));
  router.use(ownKeyRoutes(deps));
  router.use(passwordRoutes(deps));
  router.use(identityRoutes(deps));
  router.use('/console', consoleSite(deps.consoleDir));
  return router;
}

export function profileAdminRoutes(deps: ProfileDeps): Router {
  return adminAccountRoutes(deps);
}
