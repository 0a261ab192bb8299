import { ROUTES, bodyLimitOf, matchPattern, matchRoute } from '../../src/http/route-table';

describe('matchPattern', () => {
  it('binds :params to one non-empty segment each', () => {
    expect(matchPattern('/api/v1/workspaces/:id/collections/:collectionId', '/api/v1/workspaces/w1/collections/c2')).toEqual({
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
  ])('%s %s goes to %s with %s auth', (method, path, upstream, auth) => {
    const match = matchRoute(method, path);
    expect(match).toMatchObject({ kind: 'found', route: { upstream, auth } });
  });

  it('sends a skill page to the system of record, and never takes the changes feed for a slug', () => {
    expect(matchRoute('GET', '/api/v1/skills/pdf-tools')).toMatchObject({ kind: 'found', route: { upstream: 'collections', scope: 'search:read' }, params: { slug: 'pdf-tools' } });
    expect(matchRoute('GET', '/api/v1/skills/changes')).toMatchObject({ kind: 'found', route: { pattern: '/api/v1/skills/changes' }, params: {} });
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
    // the gateway serves members and invitations itself (workspaces/): not proxied
    expect(matchRoute('GET', '/api/v1/workspaces/w1/members')).toEqual({ kind: 'none' });
    expect(matchRoute('POST', '/api/v1/workspaces/w1/invitations')).toEqual({ kind: 'none' });
  });

  it('names the allowed methods when only the method is wrong', () => {
    expect(matchRoute('DELETE', '/api/v1/skills')).toEqual({ kind: 'wrongMethod', allow: ['GET'] });
    expect(matchRoute('PUT', '/api/v1/me/collections/c1')).toEqual({ kind: 'wrongMethod', allow: ['GET', 'PATCH', 'DELETE'] });
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
