/**
 * The proxied part of the gateway: finds the route (404 / 405 with Allow),
 * authenticates the caller as the route demands, runs the admin-side account
 * checks, reads the body (all but the streamed import), waits for nothing:
 * admitted (admission.ts) or shed with 503, and only once admitted signs the
 * principal for this very method + URL + body and forwards.
 */
import type { NextFunction, Request, Response } from 'express';
import {
  AuthenticationError,
  MethodNotAllowedError,
  NotAllowedError,
  PayloadTooLargeError,
  UpstreamError,
  contextOf,
  EMPTY_BODY,
  STREAMED_BODY,
  bodyDigest,
  hasBody,
  jsonBody,
  validate,
  type Logger,
  type Principal,
  type PrincipalAudience,
  type PrincipalSigner,
} from '@skills/common';
import type { AccountService } from '../../domain/accounts/account.service';
import type { AuditLog } from '../../domain/audit/audit';
import type { AuthFailureAudit } from '../../domain/audit/auth-failure-audit';
import type { AuthFailureGuard } from '../../domain/limits/auth-failure-guard';
import type { KeyAuthenticator } from '../../domain/keys/key-authenticator';
import type { RateLimiter } from '../../domain/limits/rate-limiter';
import { offersScannerToken } from '../../domain/scanner/scanner';
import type { ScannerAuthenticator } from '../../domain/scanner/scanner-authenticator';
import type { SessionGate } from '../sessions/session-gate';
import { signable, type AccountPrincipal } from '../../domain/keys/key-authenticator';
import { policyCacheKey, type SearchPolicies } from '../../domain/workspaces/search-policies';
import { routeClassOf, type AdmissionGate } from '../limits/admission';
import type { AnswerCache, Served } from './answer-cache';
import { callerAuthenticator, scannerAuthenticator } from '../keys/caller-auth';
import { auditProxiedWrite } from './proxy-audit';
import { readBody } from './read-body';
import { bodyLimitOf, matchRoute, type ProxyRoute, type UpstreamName } from './route-table';
import { copyAnswerHead, sendConditional, type Upstream } from './upstream-proxy';
import { accountFieldSchema, workspaceQuerySchema } from './proxy.schemas';

export interface ProxyRoutesDeps {
  logger: Logger;
  authenticator: KeyAuthenticator;
  accounts: AccountService;
  signer: PrincipalSigner;
  upstreams: Record<UpstreamName, Upstream>;
  /** per-account budget of /api/v1 calls; none means unlimited */
  rateLimiter?: RateLimiter;
  /** per-address budget of failed authentications; none means unlimited */
  authFailures?: AuthFailureGuard;
  /** where audited writes (route-table.ts `audit`) are recorded; none: not recorded */
  audit?: AuditLog;
  /** counts failed authentications into the audit trail */
  failureAudit?: AuthFailureAudit;
  /** reuses answers that are the same for every caller for a few ms; none: every request goes upstream */
  answerCache?: AnswerCache;
  /** lets a console session call the `key` routes as its own account (no plan or scope rule; CSRF on writes) */
  sessions?: SessionGate;
  /** bounds the requests in flight to the services; the rest are shed with 503 */
  admission: AdmissionGate;
  /** scanner credentials: the verdict route's callers, refused everywhere else */
  scanners?: ScannerAuthenticator;
  /** the workspace policies searches apply (route-table.ts `searchPolicy`); none: a search that needs one is refused */
  searchPolicies?: SearchPolicies;
}

const ADMIN: Principal = { kind: 'admin' };
/** Each header names the one service it is for: a service refuses a header meant for the other. */
const AUDIENCE: Record<UpstreamName, PrincipalAudience> = {
  catalog: 'catalog-service',
  collections: 'collections-service',
};
const parseJson = jsonBody();

function readJson(req: Request, res: Response): Promise<unknown> {
  return new Promise((resolve, reject) => {
    parseJson(req, res, (err?: unknown) => (err ? reject(err) : resolve(req.body)));
  });
}

function checkDeclaredLength(req: Request, limit: number): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new PayloadTooLargeError('body.tooLarge', { limit: `${Math.round(limit / 1024)}kb` });
}

/**
 * Public reads get a strong ETag (If-None-Match → 304) and a cache policy:
 * search may be reused for 5 s (a write can stay hidden from a client cache
 * that long), collection reads and the changes feed must be revalidated every
 * time (a feed polled with the same cursor answers 304 while nothing changed).
 */
function cacheControlOf(route: ProxyRoute): string | undefined {
  if (route.method !== 'GET' || route.auth !== 'key' || route.serviceConditional) return undefined;
  return route.pattern === '/api/v1/skills' ? 'private, max-age=5' : 'private, no-cache';
}

/** A stored answer with its ETag (or 304), else the upstream's own answer as it came. */
function sendServed(req: Request, res: Response, served: Served, cacheControl: string | undefined): void {
  if (served.kind === 'passed') {
    copyAnswerHead(res, served.answer.status, served.answer.headers);
    res.end(served.answer.body);
    return;
  }
  const { answer } = served;
  res.status(200).setHeader('Content-Type', answer.contentType);
  if (cacheControl) sendConditional(req, res, answer.body, cacheControl, answer.etag);
  else res.end(answer.body);
}

export function proxyRoutes(deps: ProxyRoutesDeps) {
  const principalOf = proxyPrincipal(deps);
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const match = matchRoute(req.method, req.path);
    if (match.kind === 'none') return next();
    if (match.kind === 'wrongMethod') {
      const allow = match.allow.join(', ');
      throw new MethodNotAllowedError('route.methodNotAllowed', { method: req.method }, { headers: { Allow: allow } });
    }
    const { route, params } = match;
    // httpMetrics labels by `req.route.path`; proxied calls have no express
    // route, so give them the table's pattern instead of "unmatched".
    req.route = { path: route.pattern };
    const principal = await principalOf(route, req, res);
    const limit = bodyLimitOf(route);
    checkDeclaredLength(req, limit);
    const streamed = route.streamedBody === true && hasBody(req);
    let body: string | Buffer | undefined = await checkAccount(deps.accounts, route, params, req, res);
    if (body === undefined && !streamed && hasBody(req)) body = await readBody(req, limit);
    const signedBody = streamed ? STREAMED_BODY : body === undefined ? EMPTY_BODY : bodyDigest(body);
    // Signed inside the admitted work only: a principal never waits in a queue.
    const sign = () => deps.signer.sign(principal, AUDIENCE[route.upstream], req.method, req.originalUrl, signedBody);
    const call: ProxiedCall = { route, params, principal, body, limit, sign };
    if (route.sharedAnswer && req.method === 'GET' && deps.answerCache?.enabled)
      return serveShared(deps, deps.answerCache, call, req, res);
    await forward(deps, call, req, res);
  };
}

/** A matched request, its caller and body, ready to go upstream. */
interface ProxiedCall {
  route: ProxyRoute;
  params: Record<string, string>;
  principal: Principal;
  body: string | Buffer | undefined;
  limit: number;
  sign: () => string;
}

/** The caller as the route demands it, then as the service is told of it. */
function proxyPrincipal(deps: ProxyRoutesDeps) {
  const authenticateCaller = callerAuthenticator(deps);
  const authenticateScanner = scannerAuthenticator(deps);
  /** The caller's account (key or session, then its rate limit), a scanner, or the operator for an admin route. */
  async function authenticate(route: ProxyRoute, req: Request, res: Response): Promise<Principal> {
    if (route.auth === 'key') return authenticateCaller(req, res, route.scope);
    if (route.auth === 'scanner') return scannerOf(deps.sessions, authenticateScanner, req, res);
    // Admin paths are behind requireAdminToken already; this guards a route table mistake.
    if (!res.locals.adminAuthenticated) throw new AuthenticationError('auth.invalidAdminToken');
    return ADMIN;
  }
  return async (route: ProxyRoute, req: Request, res: Response): Promise<Principal> =>
    upstreamPrincipal(deps.searchPolicies, route, await authenticate(route, req, res), req, res);
}

/**
 * A scanner route takes a scanner credential only: an API key or a session
 * there is a 403, no credential at all a 401.
 */
async function scannerOf(
  sessions: SessionGate | undefined,
  authenticateScanner: (req: Request, res: Response) => Promise<Principal>,
  req: Request,
  res: Response,
): Promise<Principal> {
  const authorization = req.get('authorization');
  if (offersScannerToken(authorization)) return authenticateScanner(req, res);
  if (authorization !== undefined || (await sessions?.principalFor(req)))
    throw new NotAllowedError('auth.scannerRequired');
  throw new AuthenticationError('auth.invalidScannerToken');
}

/** Runs the route's account check; returns the body to forward when it had to be parsed. */
async function checkAccount(
  accounts: AccountService,
  route: ProxyRoute,
  params: Record<string, string>,
  req: Request,
  res: Response,
) {
  const check = route.accountCheck;
  if (!check) return undefined;
  if (check.from === 'param') {
    await accounts.requireExists(params[check.name] ?? '');
    return undefined;
  }
  const body = validate<Record<string, unknown>>(accountFieldSchema(check.field), (await readJson(req, res)) ?? {});
  await accounts.requireExists(String(body[check.field]));
  return JSON.stringify(body);
}

/**
 * The principal signed for the service: on a search route, with the
 * workspace policy of the key's binding or of `workspace=` (docs/governance.md),
 * which nothing the client sends can widen.
 */
async function upstreamPrincipal(
  searchPolicies: SearchPolicies | undefined,
  route: ProxyRoute,
  principal: Principal,
  req: Request,
  res: Response,
): Promise<Principal> {
  if (!route.searchPolicy || principal.kind !== 'account') return signable(principal);
  // the caller authenticator's account principal: its key's binding, if any, rides along
  const account = principal as AccountPrincipal;
  // the common search names no workspace and its key has none: nothing to validate or fetch
  if (account.workspaceId === undefined && req.query.workspace === undefined) return signable(principal);
  const { workspace } = validate<{ workspace?: string }>(workspaceQuerySchema, req.query);
  if (!searchPolicies) throw new UpstreamError(503, 'upstream.unavailable');
  const caller = { principal: account, requestId: contextOf(res).requestId, language: req.get('accept-language') };
  const searchPolicy = await searchPolicies.forSearch(caller, workspace);
  const signed = signable(account);
  return signed.kind === 'account' && searchPolicy ? { ...signed, searchPolicy } : signed;
}

/** An answer the same for every caller: from the cache, else fetched whole once for all who ask meanwhile. */
async function serveShared(
  deps: ProxyRoutesDeps,
  answerCache: AnswerCache,
  call: ProxiedCall,
  req: Request,
  res: Response,
): Promise<void> {
  const { route, principal, sign } = call;
  const upstream = deps.upstreams[route.upstream];
  // A cache hit needs no place and no principal.
  // A policy's answer is stored under that very policy: another policy, or this one changed, never gets it.
  const cacheKey =
    principal.kind === 'account' && principal.searchPolicy
      ? `${req.originalUrl}\n${policyCacheKey(principal.searchPolicy)}`
      : req.originalUrl;
  const served = await answerCache.serve(cacheKey, () =>
    deps.admission.run(routeClassOf(route.upstream, req.method), () => upstream.fetchWhole(req, res, sign)),
  );
  sendServed(req, res, served, cacheControlOf(route));
}

/** Forwards once admitted, streaming the answer back; an audited write is recorded before the client sees it. */
async function forward(deps: ProxyRoutesDeps, call: ProxiedCall, req: Request, res: Response): Promise<void> {
  const { route, params, principal, body } = call;
  const audit = deps.audit;
  const beforeAnswer = async (): Promise<void> => {
    // Before the client sees the new policy applied, this gateway's copy is gone.
    if (route.dropsSearchPolicy) deps.searchPolicies?.forget(params[route.dropsSearchPolicy] ?? '');
    if (audit && route.audit) await auditProxiedWrite(audit, deps.logger, req, res, { route, params, principal, body });
  };
  await deps.admission.run(routeClassOf(route.upstream, req.method), () =>
    deps.upstreams[route.upstream].forward(req, res, {
      sign: call.sign,
      body,
      bodyLimit: call.limit,
      cacheControl: cacheControlOf(route),
      serviceConditional: route.serviceConditional,
      beforeAnswer,
      answerWithinMs: route.answerWithinMs,
    }),
  );
}
