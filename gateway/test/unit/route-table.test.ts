import { ROUTES, bodyLimitOf, matchPattern, matchRoute } from '../../src/http/proxy/route-table';

describe('matchPattern', () => {
  it('binds :params to one non-empty segment each', () => {
    expect(
      matchPattern('/api/v1/workspaces/:id/collections/:collectionId', '/api/v1/workspaces/w1/collections/c2'),
    ).toEqual({
      id: 'w1',
      collectionId: 'c2',
    });
    expect(matchPattern('/api/v1/me/collections/:id', '/api/v1/me/collections/')).toBeUndefined();
    expect(matchPattern('/api/v1/me/collections/:id', '/api/v1/me/collections/a/b')).toBeUndefined();
  });

  it('decodes params and keeps malformed escapes as they are', () => {
    expect(matchPattern('/admin/v1/skills/:slug', '/admin/v1/skills/my%20skill')).toEqual({ slug: 'my skill' });
    expect(matchPattern('/admin/v1/skills/:slug', '/admin/v1/skills/%E0%A4%A')).toEqual({ slug: '%E0%A4%A' });
  });

  it('binds a :param before a custom method (:name:verb) and refuses the bare verb or another one', () => {
    expect(matchPattern('/admin/v1/reports/:id:resolve', '/admin/v1/reports/r1:resolve')).toEqual({ id: 'r1' });
    expect(
      matchPattern('/admin/v1/skills/:slug/versions/:version:yank', '/admin/v1/skills/pdf/versions/2.0.0-rc.1:yank'),
    ).toEqual({
      slug: 'pdf',
      version: '2.0.0-rc.1',
    });
    expect(matchPattern('/admin/v1/reports/:id:resolve', '/admin/v1/reports/:resolve')).toBeUndefined();
    expect(matchPattern('/admin/v1/reports/:id:resolve', '/admin/v1/reports/r1:dismiss')).toBeUndefined();
    expect(matchPattern('/admin/v1/reports/:id:resolve', '/admin/v1/reports/r1')).toBeUndefined();
  });

  it('lets a trailing * match one or more segments, not none', () => {
    expect(matchPattern('/admin/v1/reindex/*', '/admin/v1/reindex/abc')).toEqual({});
    expect(matchPattern('/admin/v1/reindex/*', '/admin/v1/reindex/abc/status')).toEqual({});
    expect(matchPattern('/admin/v1/reindex/*', '/admin/v1/reindex')).toBeUndefined();
    expect(matchPattern('/admin/v1/reindex/*', '/admin/v1/reindex/')).toBeUndefined();
  });
});

describe('matchRoute', () => {
  it.each([
    ['GET', '/api/v1/skills', 'catalog', 'key'],
    ['GET', '/api/v1/me/collections', 'collections', 'key'],
    ['POST', '/api/v1/me/collections', 'collections', 'key'],
    ['PATCH', '/api/v1/me/collections/c1', 'collections', 'key'],
    ['DELETE', '/api/v1/workspaces/w1/collections/c1', 'collections', 'key'],
    ['POST', '/api/v1/workspaces/w1/collections', 'collections', 'key'],
    ['PUT', '/admin/v1/skills/pdf-tools', 'collections', 'admin'],
    ['POST', '/admin/v1/skills:import', 'collections', 'admin'],
    ['GET', '/admin/v1/items', 'collections', 'admin'],
    ['POST', '/admin/v1/workspaces', 'collections', 'admin'],
    ['PUT', '/admin/v1/workspaces/w1/members/a1', 'collections', 'admin'],
    ['POST', '/admin/v1/reindex', 'catalog', 'admin'],
    ['GET', '/admin/v1/reindex/job-1', 'catalog', 'admin'],
    ['GET', '/api/v1/skills/pdf/versions', 'collections', 'key'],
    ['GET', '/api/v1/skills/pdf/versions/1.4.0', 'collections', 'key'],
    ['GET', '/api/v1/skills/pdf/versions/1.4.0/verdicts', 'collections', 'key'],
    ['POST', '/api/v1/skills/pdf/versions/1.4.0/verdicts', 'collections', 'scanner'],
    ['POST', '/api/v1/skills/pdf/reports', 'collections', 'key'],
    ['POST', '/admin/v1/skills/pdf/versions', 'collections', 'admin'],
    ['POST', '/admin/v1/skills/pdf/versions/1.4.0:yank', 'collections', 'admin'],
    ['POST', '/admin/v1/skills/pdf/versions/1.4.0:unyank', 'collections', 'admin'],
    ['PUT', '/admin/v1/skills/pdf/versions/1.4.0/override', 'collections', 'admin'],
    ['DELETE', '/admin/v1/skills/pdf/versions/1.4.0/override', 'collections', 'admin'],
    ['GET', '/admin/v1/publishers', 'collections', 'admin'],
    ['PUT', '/admin/v1/publishers/acme', 'collections', 'admin'],
    ['GET', '/admin/v1/reports', 'collections', 'admin'],
    ['POST', '/admin/v1/reports/r1:resolve', 'collections', 'admin'],
    ['POST', '/admin/v1/reports/r1:dismiss', 'collections', 'admin'],
  ])('%s %s goes to %s with %s auth', (method, path, upstream, auth) => {
    const match = matchRoute(method, path);
    expect(match).toMatchObject({ kind: 'found', route: { upstream, auth } });
  });

  it('sends a skill page to the system of record, and never takes the changes feed for a slug', () => {
    expect(matchRoute('GET', '/api/v1/skills/pdf-tools')).toMatchObject({
      kind: 'found',
      route: { upstream: 'collections', scope: 'search:read' },
      params: { slug: 'pdf-tools' },
    });
    expect(matchRoute('GET', '/api/v1/skills/changes')).toMatchObject({
      kind: 'found',
      route: { pattern: '/api/v1/skills/changes' },
      params: {},
    });
  });

  it('asks workspaces:manage for what lets people in or out of a workspace, collections:read to look', () => {
    const scopeOf = (method: string, path: string) => {
      const match = matchRoute(method, path);
      return match.kind === 'found' ? match.route.scope : undefined;
    };
    expect(scopeOf('POST', '/api/v1/workspaces')).toBe('workspaces:manage');
    expect(scopeOf('PUT', '/api/v1/workspaces/w1/members/a1')).toBe('workspaces:manage');
    expect(scopeOf('DELETE', '/api/v1/workspaces/w1/members/me')).toBe('workspaces:manage');
    expect(scopeOf('GET', '/api/v1/workspaces')).toBe('collections:read');
    expect(scopeOf('GET', '/api/v1/workspaces/w1')).toBe('collections:read');
    expect(scopeOf('POST', '/api/v1/me/private-skills')).toBe('collections:write');
    // the gateway serves members and invitations itself (http/workspaces/workspaces.routes.ts): not proxied
    expect(matchRoute('GET', '/api/v1/workspaces/w1/members')).toEqual({ kind: 'none' });
    expect(matchRoute('POST', '/api/v1/workspaces/w1/invitations')).toEqual({ kind: 'none' });
  });

  it('reads releases, verdicts and reports with search:read, and lets only a scanner record a verdict', () => {
    const routeOf = (method: string, path: string) => {
      const match = matchRoute(method, path);
      return match.kind === 'found' ? match.route : undefined;
    };
    for (const [method, path] of [
      ['GET', '/api/v1/skills/pdf/versions'],
      ['GET', '/api/v1/skills/pdf/versions/1.4.0'],
      ['GET', '/api/v1/skills/pdf/versions/1.4.0/verdicts'],
      ['POST', '/api/v1/skills/pdf/reports'],
    ] as const) {
      expect(routeOf(method, path)).toMatchObject({ auth: 'key', scope: 'search:read' });
    }
    expect(ROUTES.filter((r) => r.auth === 'scanner').map((r) => `${r.method} ${r.pattern}`)).toEqual([
      'POST /api/v1/skills/:slug/versions/:version/verdicts',
    ]);
  });

  it('audits every operator action on releases, verdicts, publishers and reports', () => {
    const actionOf = (method: string, path: string) => {
      const match = matchRoute(method, path);
      return match.kind === 'found' ? match.route.audit?.action : undefined;
    };
    expect([
      actionOf('POST', '/admin/v1/skills/pdf/versions'),
      actionOf('POST', '/admin/v1/skills/pdf/versions/1.4.0:yank'),
      actionOf('POST', '/admin/v1/skills/pdf/versions/1.4.0:unyank'),
      actionOf('PUT', '/admin/v1/skills/pdf/versions/1.4.0/override'),
      actionOf('DELETE', '/admin/v1/skills/pdf/versions/1.4.0/override'),
      actionOf('PUT', '/admin/v1/publishers/acme'),
      actionOf('POST', '/admin/v1/reports/r1:resolve'),
      actionOf('POST', '/admin/v1/reports/r1:dismiss'),
    ]).toEqual([
      'release.publish',
      'release.yank',
      'release.unyank',
      'verdict.override',
      'verdict.override_clear',
      'publisher.verify',
      'report.resolve',
      'report.dismiss',
    ]);
  });

  it('names the allowed methods when only the method is wrong', () => {
    expect(matchRoute('DELETE', '/api/v1/skills')).toEqual({ kind: 'wrongMethod', allow: ['GET'] });
    expect(matchRoute('PUT', '/api/v1/me/collections/c1')).toEqual({
      kind: 'wrongMethod',
      allow: ['GET', 'PATCH', 'DELETE'],
    });
    expect(matchRoute('GET', '/admin/v1/skills:import')).toEqual({ kind: 'wrongMethod', allow: ['POST'] });
  });

  it('serves HEAD wherever GET is served', () => {
    expect(matchRoute('HEAD', '/api/v1/skills')).toMatchObject({ kind: 'found', route: { method: 'GET' } });
    expect(matchRoute('HEAD', '/admin/v1/skills:import')).toEqual({ kind: 'wrongMethod', allow: ['POST'] });
  });

  it('finds nothing for unknown paths, trailing slashes and other versions', () => {
    for (const path of ['/api/v1/nope', '/api/v1/skills/', '/api/v2/skills', '/', '/api/v1/me']) {
      expect(matchRoute('GET', path)).toEqual({ kind: 'none' });
    }
  });

  it('checks the account of the admin calls made on behalf of one', () => {
    const checked = ROUTES.filter((r) => r.accountCheck).map((r) => `${r.method} ${r.pattern}`);
    expect(checked).toEqual([
      'POST /admin/v1/accounts/:id/private-skills',
      'POST /admin/v1/workspaces',
      'PUT /admin/v1/workspaces/:id/members/:accountId',
    ]);
  });

  it('allows 50 MB for the import and 100 kB elsewhere', () => {
    const found = (m: string, p: string) => {
      const match = matchRoute(m, p);
      if (match.kind !== 'found') throw new Error('no route');
      return bodyLimitOf(match.route);
    };
    expect(found('POST', '/admin/v1/skills:import')).toBe(50 * 1024 * 1024);
    expect(found('POST', '/api/v1/me/collections')).toBe(100 * 1024);
  });
});
