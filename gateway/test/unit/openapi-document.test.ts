/**
 * The OpenAPI document against the contract, and assertMatchesOpenApi
 * against responses that must pass or fail.
 */
import { messageCatalogue, translate } from '@skills/common';
import { INVITABLE_ROLES, WORKSPACE_ROLES } from '@skills/common/workspace-roles';
import { openApiDocument } from '../../src/openapi/document';
import { HTTP_METHODS, type Example, type Operation, type Response } from '../../src/openapi/openapi-types';
import { OpenApiMismatchError, assertMatchesOpenApi } from '../../src/testing';

const limited = { 'ratelimit-limit': '600', 'ratelimit-remaining': '599', 'ratelimit-reset': '60' };
/** what the gateway sends on a search answer; collection reads differ in Cache-Control only */
const json = {
  'content-type': 'application/json; charset=utf-8',
  'x-request-id': 'req-1',
  ...limited,
  etag: '"abc_-1"',
  'cache-control': 'private, max-age=5',
};
const cacheControlOf = (path: string) => (path === '/api/v1/skills' ? 'private, max-age=5' : 'private, no-cache');

function operations(): Array<{ method: string; path: string; op: Operation }> {
  return Object.entries(openApiDocument.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => (item[method] ? [{ method, path, op: item[method] as Operation }] : [])),
  );
}

function resolveResponse(response: Response | { $ref: string }): Response {
  if (!('$ref' in response)) return response;
  const name = response.$ref.split('/').pop() as string;
  return openApiDocument.components.responses[name] as Response;
}

function errorTexts(op: Operation, status: string): string[] {
  const response = op.responses[status];
  if (!response) return [];
  const examples = resolveResponse(response).content?.['application/json']?.examples ?? {};
  return Object.values(examples).map((e: Example) => (e.value as { error: string }).error);
}

describe('openApiDocument', () => {
  // the operations an API key calls (the document's default security); the console's own ones name theirs
  const publicOps = operations().filter(
    (o) => o.path.startsWith('/api/v1/') && o.path !== '/api/v1/openapi.json' && o.op.security === undefined,
  );

  it('documents the eleven public operations of the contract and its decisions, the changes feed, the self-service and the governance ones', () => {
    expect(publicOps.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()).toEqual([
      'DELETE /api/v1/me/collections/{id}',
      'DELETE /api/v1/workspaces/{id}/collections/{collectionId}',
      'DELETE /api/v1/workspaces/{id}/invitations/{invitationId}',
      'DELETE /api/v1/workspaces/{id}/members/{accountId}',
      'DELETE /api/v1/workspaces/{id}/webhooks/{webhookId}',
      'GET /api/v1/me/collections',
      'GET /api/v1/me/collections/{id}',
      'GET /api/v1/me/private-skills',
      'GET /api/v1/skills',
      'GET /api/v1/skills/changes',
      'GET /api/v1/skills/{slug}',
      'GET /api/v1/skills/{slug}/versions',
      'GET /api/v1/skills/{slug}/versions/{version}',
      'GET /api/v1/skills/{slug}/versions/{version}/verdicts',
      'GET /api/v1/workspaces',
      'GET /api/v1/workspaces/{id}',
      'GET /api/v1/workspaces/{id}/collections',
      'GET /api/v1/workspaces/{id}/collections/{collectionId}',
      'GET /api/v1/workspaces/{id}/collections/{collectionId}/lockfile',
      'GET /api/v1/workspaces/{id}/invitations',
      'GET /api/v1/workspaces/{id}/members',
      'GET /api/v1/workspaces/{id}/policy',
      'GET /api/v1/workspaces/{id}/webhooks',
      'GET /api/v1/workspaces/{id}/webhooks/{webhookId}',
      'GET /api/v1/workspaces/{id}/webhooks/{webhookId}/deliveries',
      'PATCH /api/v1/me/collections/{id}',
      'PATCH /api/v1/workspaces/{id}/collections/{collectionId}',
      'PATCH /api/v1/workspaces/{id}/webhooks/{webhookId}',
      'POST /api/v1/me/collections',
      'POST /api/v1/me/private-skills',
      'POST /api/v1/skills/{slug}/reports',
      'POST /api/v1/workspaces',
      'POST /api/v1/workspaces/{id}/collections',
      'POST /api/v1/workspaces/{id}/collections/{collectionId}/pins:update',
      'POST /api/v1/workspaces/{id}/invitations',
      'POST /api/v1/workspaces/{id}/webhooks',
      'POST /api/v1/workspaces/{id}/webhooks/{webhookId}/test',
      'PUT /api/v1/workspaces/{id}/members/{accountId}',
      'PUT /api/v1/workspaces/{id}/policy',
    ]);
  });

  it.each(['en', 'fr'] as const)('gives every public operation the contract 401 and 403 texts in %s', (lang) => {
    for (const { op } of publicOps) {
      expect(errorTexts(op, '401')).toContain(messageCatalogue['auth.invalidKey'][lang]);
      expect(errorTexts(op, '403')).toContain(messageCatalogue['auth.planWithoutApi'][lang]);
    }
  });

  it('documents both workspace refusals on the workspace writes', () => {
    const create = publicOps.find((o) => o.method === 'post' && o.path === '/api/v1/workspaces/{id}/collections')
      ?.op as Operation;
    expect(errorTexts(create, '403')).toEqual(
      expect.arrayContaining([
        'You do not have access to this workspace',
        'Your workspace role does not allow this action',
      ]),
    );
  });

  it("puts the admin operations behind the admin bearer scheme, the console's behind its session, and the rest behind the key or nothing", () => {
    const sessionOnly =
      /^\/api\/v1\/(auth\/session|auth\/password$|auth\/reauthenticate|auth\/oidc\/(link|reauthenticate)|me\/sessions|me\/identities|me\/api-keys|invitations\/)/;
    const signingIn = /^\/api\/v1\/auth\/(options|sign-|password-|verify-email|oidc\/)/;
    for (const { path, op } of operations()) {
      if (path.startsWith('/admin/v1/')) expect(op.security).toEqual([{ adminBearer: [] }]);
      else if (sessionOnly.test(path))
        expect({ path, security: op.security }).toEqual({ path, security: [{ sessionCookie: [] }] });
      else if (signingIn.test(path) || !path.startsWith('/api/v1/') || path === '/api/v1/openapi.json')
        expect(op.security).toEqual([]);
      else if (
        path === '/api/v1/skills/{slug}/versions/{version}/verdicts' &&
        op.operationId === 'recordSkillVersionVerdict'
      ) {
        expect(op.security).toEqual([{ scannerBearer: [] }]);
      } else expect(op.security).toBeUndefined();
    }
    expect(openApiDocument.security).toEqual([{ apiKey: [] }, { sessionCookie: [] }]);
  });

  it.each(['en', 'fr'] as const)(
    'documents the missing-scope 403 on every operation an API key calls, in %s',
    (lang) => {
      for (const { op } of publicOps)
        expect(errorTexts(op, '403')).toContain(translate('auth.missingScope', lang, { scope: 'collections:write' }));
    },
  );

  it.each(['en', 'fr'] as const)(
    "documents the scanner credential's 403 on every operation but the verdict it records, in %s",
    (lang) => {
      for (const { path, op } of operations()) {
        if (op.security?.length === 0) continue;
        const texts = errorTexts(op, '403');
        if (op.security?.[0]?.scannerBearer)
          expect(texts).toEqual([translate('auth.scannerRequired', 'en'), translate('auth.scannerRequired', 'fr')]);
        else
          expect({ path, documented: texts.includes(translate('auth.scannerVerdictsOnly', lang)) }).toEqual({
            path,
            documented: true,
          });
      }
    },
  );

  it('documents a client error for every operation that takes credentials', () => {
    for (const { path, op } of operations()) {
      if (op.security?.length === 0) continue;
      expect({ path, has4xx: Object.keys(op.responses).some((s) => s.startsWith('4')) }).toEqual({
        path,
        has4xx: true,
      });
    }
  });

  it('documents Idempotency-Key on the two creates only', () => {
    const withKey = operations()
      .filter(({ op }) => op.parameters?.some((p) => '$ref' in p && p.$ref.endsWith('/IdempotencyKey')))
      .map(({ op }) => op.operationId);
    expect(withKey.sort()).toEqual(['createMyCollection', 'createWorkspaceCollection']);
  });

  it('has examples that match their own schemas', () => {
    let checked = 0;
    for (const { method, path, op } of operations()) {
      for (const [status, raw] of Object.entries(op.responses)) {
        const response = resolveResponse(raw);
        const media = response.content?.['application/json'];
        for (const example of Object.values(media?.examples ?? {})) {
          const headers = { ...json, 'cache-control': cacheControlOf(path), 'retry-after': '12', allow: 'GET' };
          expect(() => assertMatchesOpenApi(method, path, Number(status), headers, example.value)).not.toThrow();
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe('assertMatchesOpenApi', () => {
  const item = {
    id: '7f3b2c1d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    slug: 'git-commit-helper',
    name: 'Git commit helper',
    description: 'd',
    type: 'skill',
    category: 'developer-tools',
    tags: [],
    publisher: null,
    version: null,
    license: null,
    repositoryUrl: null,
    homepageUrl: null,
    downloads: 0,
    latestVersion: null,
    verdict: 'unscanned',
    publisherVerified: false,
    updatedAt: '2026-11-21T09:30:00.000Z',
  };
  const page = (skills: unknown[]) => ({
    data: { skills, pagination: { page: 1, limit: 20, total: 1, totalPages: 1, hasMore: false } },
  });

  it('accepts a concrete path with a query string', () => {
    expect(() => assertMatchesOpenApi('GET', '/api/v1/skills?q=git&limit=5', 200, json, page([item]))).not.toThrow();
  });

  it('rejects a field the document does not have', () => {
    expect(() => assertMatchesOpenApi('GET', '/api/v1/skills', 200, json, page([{ ...item, score: 3 }]))).toThrow(
      OpenApiMismatchError,
    );
  });

  it('rejects a missing field, a wrong enum value and a bad timestamp', () => {
    const { tags: _tags, ...noTags } = item;
    expect(() => assertMatchesOpenApi('GET', '/api/v1/skills', 200, json, page([noTags]))).toThrow(/tags/);
    expect(() => assertMatchesOpenApi('GET', '/api/v1/skills', 200, json, page([{ ...item, type: 'agent' }]))).toThrow(
      /type/,
    );
    expect(() =>
      assertMatchesOpenApi('GET', '/api/v1/skills', 200, json, page([{ ...item, updatedAt: 'yesterday' }])),
    ).toThrow(/date-time/);
  });

  it('rejects an undocumented status, a missing X-Request-Id and an undocumented content type', () => {
    const deleted = { data: { deleted: true } };
    expect(() => assertMatchesOpenApi('DELETE', '/api/v1/me/collections/abc', 204, json, undefined)).toThrow(
      /204 is not documented/,
    );
    expect(() =>
      assertMatchesOpenApi(
        'DELETE',
        '/api/v1/me/collections/abc',
        200,
        { 'content-type': 'application/json' },
        deleted,
      ),
    ).toThrow(/X-Request-Id/);
    expect(() =>
      assertMatchesOpenApi(
        'DELETE',
        '/api/v1/me/collections/abc',
        200,
        { ...json, 'content-type': 'text/html' },
        deleted,
      ),
    ).toThrow(/text\/html/);
    expect(() => assertMatchesOpenApi('DELETE', '/api/v1/me/collections/abc', 200, json, deleted)).not.toThrow();
  });

  it('rejects an error body that is not { error: string }', () => {
    expect(() => assertMatchesOpenApi('GET', '/api/v1/me/collections', 401, json, { message: 'no' })).toThrow(
      OpenApiMismatchError,
    );
    expect(() =>
      assertMatchesOpenApi('GET', '/api/v1/me/collections', 401, json, { error: 'Invalid or revoked API key' }),
    ).not.toThrow();
  });

  it('requires Retry-After on 429 and Allow on 405', () => {
    const body = { error: 'x' };
    expect(() => assertMatchesOpenApi('GET', '/api/v1/skills', 429, json, body)).toThrow(/Retry-After/);
    expect(() =>
      assertMatchesOpenApi('GET', '/api/v1/skills', 429, { ...json, 'retry-after': '3' }, body),
    ).not.toThrow();
    expect(() => assertMatchesOpenApi('GET', '/api/v1/skills', 405, json, body)).toThrow(/Allow/);
    expect(() => assertMatchesOpenApi('PUT', '/api/v1/skills', 405, { ...json, allow: 'GET' }, body)).not.toThrow();
  });

  it('accepts 304 without a body on conditional GETs only', () => {
    const notModified = { 'x-request-id': 'r', ...limited, etag: '"a"', 'cache-control': 'private, no-cache' };
    expect(() => assertMatchesOpenApi('GET', '/api/v1/skills', 304, notModified, {})).not.toThrow();
    const { etag: _dropped, ...withoutEtag } = notModified;
    expect(() => assertMatchesOpenApi('GET', '/api/v1/skills', 304, withoutEtag, {})).toThrow(/ETag/);
    expect(() => assertMatchesOpenApi('PATCH', '/api/v1/me/collections/x', 304, { 'x-request-id': 'r' }, {})).toThrow(
      /304/,
    );
  });

  it('checks the rate-limit headers when sent, and requires a strong ETag and the cache policy on public reads', () => {
    const body = { data: { skills: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0, hasMore: false } } };
    const { 'ratelimit-remaining': _r, ...noRemaining } = json;
    // absent while the plan has no limit; when present, an integer
    expect(() => assertMatchesOpenApi('GET', '/api/v1/skills', 200, noRemaining, body)).not.toThrow();
    expect(() =>
      assertMatchesOpenApi('GET', '/api/v1/skills', 200, { ...json, 'ratelimit-remaining': 'many' }, body),
    ).toThrow(/RateLimit-Remaining/);
    expect(() => assertMatchesOpenApi('GET', '/api/v1/skills', 200, { ...json, etag: 'W/"abc"' }, body)).toThrow(
      /ETag/,
    );
    expect(() =>
      assertMatchesOpenApi('GET', '/api/v1/skills', 200, { ...json, 'cache-control': 'no-store' }, body),
    ).toThrow(/Cache-Control/);
    const list = {
      data: { collections: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0, hasMore: false } },
    };
    expect(() => assertMatchesOpenApi('GET', '/api/v1/me/collections', 200, json, list)).toThrow(/Cache-Control/);
    expect(() =>
      assertMatchesOpenApi(
        'GET',
        '/api/v1/me/collections',
        200,
        { ...json, 'cache-control': 'private, no-cache' },
        list,
      ),
    ).not.toThrow();
    // refused before the key is counted: no rate-limit headers needed
    const bare = { 'content-type': 'application/json', 'x-request-id': 'r' };
    expect(() =>
      assertMatchesOpenApi('GET', '/api/v1/skills', 401, bare, { error: 'Invalid or revoked API key' }),
    ).not.toThrow();
  });

  it('prefers a literal path over a template and knows unknown routes', () => {
    expect(() =>
      assertMatchesOpenApi('POST', '/admin/v1/skills:import', 200, json, { data: { imported: 2 } }),
    ).not.toThrow();
    expect(() => assertMatchesOpenApi('GET', '/api/v2/skills', 200, json, {})).toThrow(/no path/);
    expect(() => assertMatchesOpenApi('PUT', '/api/v1/skills', 200, json, {})).toThrow(/not in the document/);
  });

  it('takes fetch Headers as well as plain objects', () => {
    const headers = new Headers(json);
    expect(() => assertMatchesOpenApi('GET', '/api/v1/skills', 200, headers, page([item]))).not.toThrow();
  });

  it('lists workspace roles as common/src/workspace-roles.ts does, every role or the invitable ones', () => {
    const roleEnums: unknown[][] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (typeof node === 'object' && node !== null) {
        const { enum: values } = node as { enum?: unknown[] };
        if (values?.includes('viewer')) roleEnums.push(values);
        Object.values(node).forEach(walk);
      }
    };
    walk(openApiDocument);
    expect(roleEnums.length).toBeGreaterThanOrEqual(4);
    const lists = [WORKSPACE_ROLES.join(), INVITABLE_ROLES.join()];
    expect(roleEnums.map((values) => values.join()).filter((values) => !lists.includes(values))).toEqual([]);
    expect(roleEnums.map((values) => values.join())).toEqual(expect.arrayContaining(lists));
  });
});
