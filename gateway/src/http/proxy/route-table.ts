/**
 * Every proxied route of the gateway in one place: method + path pattern →
 * upstream, who may call it, and what the gateway checks first. Patterns use
 * `:name` for one path segment, `:name:verb` for a segment ending in the
 * custom method `:verb` (`/reports/:id:resolve`), and a trailing `*` for the
 * rest of the path.
 */

import type { AuditAction } from '../../domain/audit/audit';
import type { Scope } from '../../domain/keys/scopes';
import { GOVERNANCE_ROUTES } from '../workspaces/governance.routes';

export type UpstreamName = 'catalog' | 'collections';

/** What the gateway verifies before proxying an admin call for an account. */
export type AccountCheck = { from: 'param'; name: string } | { from: 'body'; field: string };

/**
 * The audit record of a proxied write, once the service answered it with
 * success: its action, and the path parameters naming what it acted on and
 * the account it concerns (a body field: the account check's).
 */
export interface RouteAudit {
  action: AuditAction;
  target?: string;
  targetAccount?: string;
  /** fields of the JSON body copied into the record's details (never a secret) */
  bodyFields?: string[];
  /** path parameters copied into the record's details (a release's version) */
  paramFields?: string[];
}

export interface ProxyRoute {
  method: string;
  pattern: string;
  upstream: UpstreamName;
  /**
   * `key`: an API key with API access, or the account's own console session;
   * `admin`: the admin token; `scanner`: a scanner credential and nothing else
   * (docs/trust.md), which every other route refuses with 403
   */
  auth: 'key' | 'admin' | 'scanner';
  /** what an API key needs for this route (a session may do all its account may) */
  scope?: Scope;
  accountCheck?: AccountCheck;
  /** the answer is the same whoever asks (public search), so the gateway may reuse it (answer-cache.ts) */
  sharedAnswer?: true;
  /** the body is streamed through without being held (the 50 MB import): not covered by the principal's body digest */
  streamedBody?: true;
  /**
   * How long the service may take to answer, when longer than the upstream
   * timeout (UPSTREAM_TIMEOUT_MS, 10 s): an import of 50 MB is written before
   * it is answered, and a 504 there would tell the client it failed while
   * its items commit anyway.
   */
  answerWithinMs?: number;
  audit?: RouteAudit;
  /** a search: it applies the workspace policy of the key's binding or of `workspace=`, signed into the principal */
  searchPolicy?: true;
  /**
   * The service answers conditional reads itself (the lockfile: a document,
   * not the envelope, whose ETag is the SHA-256 of its bytes): If-None-Match
   * goes to it, and its ETag, Cache-Control and 304 come back unchanged.
   */
  serviceConditional?: true;
  /** the path parameter naming a workspace whose policy this write replaces: the gateway drops its cached copy */
  dropsSearchPolicy?: string;
}

const IMPORT = '/admin/v1/skills:import';
/** 50 MB at a pessimistic 10,000 lines (~2 MB) a second is under a minute: five leave a loaded server room. */
export const IMPORT_ANSWER_WITHIN_MS = 300_000;

/** Collection routes: reads need `collections:read`, writes `collections:write`. */
const COLLECTION_ROUTES: ReadonlyArray<readonly [pattern: string, methods: readonly string[]]> = [
  ['/api/v1/me/collections', ['GET', 'POST']],
  ['/api/v1/me/collections/:id', ['GET', 'PATCH', 'DELETE']],
  ['/api/v1/workspaces/:id/collections', ['GET', 'POST']],
  ['/api/v1/workspaces/:id/collections/:collectionId', ['GET', 'PATCH', 'DELETE']],
];

/** docs/trust.md: releases, verdicts and reports of an item; reads as any public read. */
const TRUST_ROUTES: readonly ProxyRoute[] = [
  {
    method: 'GET',
    pattern: '/api/v1/skills/:slug/versions',
    upstream: 'collections',
    auth: 'key',
    scope: 'search:read',
  },
  {
    method: 'GET',
    pattern: '/api/v1/skills/:slug/versions/:version',
    upstream: 'collections',
    auth: 'key',
    scope: 'search:read',
  },
  {
    method: 'GET',
    pattern: '/api/v1/skills/:slug/versions/:version/verdicts',
    upstream: 'collections',
    auth: 'key',
    scope: 'search:read',
  },
  // a scanner credential's only route; keys and sessions get 403 here
  {
    method: 'POST',
    pattern: '/api/v1/skills/:slug/versions/:version/verdicts',
    upstream: 'collections',
    auth: 'scanner',
    audit: { action: 'verdict.record', target: 'slug', paramFields: ['version'], bodyFields: ['verdict'] },
  },
  {
    method: 'POST',
    pattern: '/api/v1/skills/:slug/reports',
    upstream: 'collections',
    auth: 'key',
    scope: 'search:read',
    audit: { action: 'report.create', target: 'slug', bodyFields: ['reason'] },
  },
];

/** docs/trust.md: what operators do to releases, verdicts, publishers and reports. */
const TRUST_ADMIN_ROUTES: readonly ProxyRoute[] = [
  {
    method: 'POST',
    pattern: '/admin/v1/skills/:slug/versions',
    upstream: 'collections',
    auth: 'admin',
    audit: { action: 'release.publish', target: 'slug', bodyFields: ['version', 'digest'] },
  },
  {
    method: 'POST',
    pattern: '/admin/v1/skills/:slug/versions/:version:yank',
    upstream: 'collections',
    auth: 'admin',
    audit: { action: 'release.yank', target: 'slug', paramFields: ['version'], bodyFields: ['reason'] },
  },
  {
    method: 'POST',
    pattern: '/admin/v1/skills/:slug/versions/:version:unyank',
    upstream: 'collections',
    auth: 'admin',
    audit: { action: 'release.unyank', target: 'slug', paramFields: ['version'] },
  },
  {
    method: 'PUT',
    pattern: '/admin/v1/skills/:slug/versions/:version/override',
    upstream: 'collections',
    auth: 'admin',
    audit: { action: 'verdict.override', target: 'slug', paramFields: ['version'], bodyFields: ['verdict', 'note'] },
  },
  {
    method: 'DELETE',
    pattern: '/admin/v1/skills/:slug/versions/:version/override',
    upstream: 'collections',
    auth: 'admin',
    audit: { action: 'verdict.override_clear', target: 'slug', paramFields: ['version'] },
  },
  { method: 'GET', pattern: '/admin/v1/publishers', upstream: 'collections', auth: 'admin' },
  {
    method: 'PUT',
    pattern: '/admin/v1/publishers/:name',
    upstream: 'collections',
    auth: 'admin',
    audit: { action: 'publisher.verify', target: 'name', bodyFields: ['verified', 'note'] },
  },
  { method: 'GET', pattern: '/admin/v1/reports', upstream: 'collections', auth: 'admin' },
  {
    method: 'POST',
    pattern: '/admin/v1/reports/:id:resolve',
    upstream: 'collections',
    auth: 'admin',
    audit: { action: 'report.resolve', target: 'id', bodyFields: ['note'] },
  },
  {
    method: 'POST',
    pattern: '/admin/v1/reports/:id:dismiss',
    upstream: 'collections',
    auth: 'admin',
    audit: { action: 'report.dismiss', target: 'id', bodyFields: ['note'] },
  },
];

export const ROUTES: readonly ProxyRoute[] = [
  {
    method: 'GET',
    pattern: '/api/v1/skills',
    upstream: 'catalog',
    auth: 'key',
    scope: 'search:read',
    sharedAnswer: true,
    searchPolicy: true,
  },
  // the changes feed reads the system of record, whatever the search engine
  { method: 'GET', pattern: '/api/v1/skills/changes', upstream: 'collections', auth: 'key', scope: 'search:read' },
  // after the feed: matching takes the first route, so "changes" is never a slug here
  { method: 'GET', pattern: '/api/v1/skills/:slug', upstream: 'collections', auth: 'key', scope: 'search:read' },
  ...TRUST_ROUTES,
  {
    method: 'GET',
    pattern: '/api/v1/me/private-skills',
    upstream: 'collections',
    auth: 'key',
    scope: 'collections:read',
  },
  {
    method: 'POST',
    pattern: '/api/v1/me/private-skills',
    upstream: 'collections',
    auth: 'key',
    scope: 'collections:write',
  },
  // self-service workspaces (members and invitations are the gateway's own routes: http/workspaces/workspaces.routes.ts)
  { method: 'GET', pattern: '/api/v1/workspaces', upstream: 'collections', auth: 'key', scope: 'collections:read' },
  {
    method: 'POST',
    pattern: '/api/v1/workspaces',
    upstream: 'collections',
    auth: 'key',
    scope: 'workspaces:manage',
    audit: { action: 'workspace.create', bodyFields: ['name'] },
  },
  { method: 'GET', pattern: '/api/v1/workspaces/:id', upstream: 'collections', auth: 'key', scope: 'collections:read' },
  {
    method: 'PUT',
    pattern: '/api/v1/workspaces/:id/members/:accountId',
    upstream: 'collections',
    auth: 'key',
    scope: 'workspaces:manage',
    audit: { action: 'workspace.member_set', target: 'id', targetAccount: 'accountId', bodyFields: ['role'] },
  },
  ...COLLECTION_ROUTES.flatMap(([pattern, methods]) =>
    methods.map((method): ProxyRoute => ({
      method,
      pattern,
      upstream: 'collections',
      auth: 'key',
      scope: method === 'GET' ? 'collections:read' : 'collections:write',
    })),
  ),
  ...GOVERNANCE_ROUTES,
  // owners and admins remove members, anyone leaves (collections-service decides who may)
  {
    method: 'DELETE',
    pattern: '/api/v1/workspaces/:id/members/:accountId',
    upstream: 'collections',
    auth: 'key',
    scope: 'workspaces:manage',
    audit: { action: 'workspace.member_remove', target: 'id', targetAccount: 'accountId' },
  },
  {
    method: 'PUT',
    pattern: '/admin/v1/skills/:slug',
    upstream: 'collections',
    auth: 'admin',
    audit: { action: 'skill.put', target: 'slug' },
  },
  {
    method: 'DELETE',
    pattern: '/admin/v1/skills/:slug',
    upstream: 'collections',
    auth: 'admin',
    audit: { action: 'skill.delete', target: 'slug' },
  },
  {
    method: 'POST',
    pattern: IMPORT,
    upstream: 'collections',
    auth: 'admin',
    streamedBody: true,
    answerWithinMs: IMPORT_ANSWER_WITHIN_MS,
    audit: { action: 'skill.import' },
  },
  { method: 'GET', pattern: '/admin/v1/items', upstream: 'collections', auth: 'admin' },
  {
    method: 'POST',
    pattern: '/admin/v1/accounts/:id/private-skills',
    upstream: 'collections',
    auth: 'admin',
    accountCheck: { from: 'param', name: 'id' },
    audit: { action: 'private_skill.create', targetAccount: 'id' },
  },
  {
    method: 'POST',
    pattern: '/admin/v1/workspaces',
    upstream: 'collections',
    auth: 'admin',
    accountCheck: { from: 'body', field: 'ownerAccountId' },
    audit: { action: 'workspace.create', bodyFields: ['name'] },
  },
  {
    method: 'PUT',
    pattern: '/admin/v1/workspaces/:id/members/:accountId',
    upstream: 'collections',
    auth: 'admin',
    accountCheck: { from: 'param', name: 'accountId' },
    audit: { action: 'workspace.member_set', target: 'id', targetAccount: 'accountId', bodyFields: ['role'] },
  },
  // no account check: an account that is not a member (or does not exist) is a 404 from the service
  {
    method: 'DELETE',
    pattern: '/admin/v1/workspaces/:id/members/:accountId',
    upstream: 'collections',
    auth: 'admin',
    audit: { action: 'workspace.member_remove', target: 'id', targetAccount: 'accountId' },
  },
  {
    method: 'POST',
    pattern: '/admin/v1/reindex',
    upstream: 'catalog',
    auth: 'admin',
    audit: { action: 'reindex.start' },
  },
  { method: 'GET', pattern: '/admin/v1/reindex/*', upstream: 'catalog', auth: 'admin' },
  ...TRUST_ADMIN_ROUTES,
];

/** The NDJSON import streams up to 50 MB; every other proxied body is JSON of at most 100 kB, read whole to be signed. */
export function bodyLimitOf(route: ProxyRoute): number {
  return route.streamedBody ? 50 * 1024 * 1024 : 100 * 1024;
}

export type RouteMatch =
  | { kind: 'found'; route: ProxyRoute; params: Record<string, string> }
  | { kind: 'wrongMethod'; allow: string[] }
  | { kind: 'none' };

/** Matches one pattern against a path; the params or undefined. */
export function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    const segment = want[i] as string;
    if (segment === '*' && i === want.length - 1) {
      const rest = got.slice(i);
      return rest.length > 0 && rest.every((s) => s !== '') ? params : undefined;
    }
    const value = got[i];
    if (value === undefined) return undefined;
    if (segment.startsWith(':')) {
      // `:id:resolve`: the parameter is what comes before the custom method
      const verbAt = segment.indexOf(':', 1);
      const verb = verbAt === -1 ? '' : segment.slice(verbAt);
      if (value.length <= verb.length || !value.endsWith(verb)) return undefined;
      params[segment.slice(1, verbAt === -1 ? undefined : verbAt)] = safeDecode(
        value.slice(0, value.length - verb.length),
      );
    } else if (segment !== value) return undefined;
  }
  return got.length === want.length ? params : undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The route for `method` + `path`; when only other methods match, the ones allowed. */
export function matchRoute(method: string, path: string, routes: readonly ProxyRoute[] = ROUTES): RouteMatch {
  const allow: string[] = [];
  for (const route of routes) {
    const params = matchPattern(route.pattern, path);
    if (!params) continue;
    const wanted = method.toUpperCase();
    // HEAD is GET without a body (RFC 9110 §9.3.2); the service answers it the same way.
    if (route.method === wanted || (wanted === 'HEAD' && route.method === 'GET'))
      return { kind: 'found', route, params };
    if (!allow.includes(route.method)) allow.push(route.method);
  }
  return allow.length > 0 ? { kind: 'wrongMethod', allow } : { kind: 'none' };
}
