import { ADMIN_OPERATIONS, expandPath } from '@skills/client';
import { parseAdminArgs, USAGE, UsageError, type AdminAction } from '../../../src/cli/admin-args';

/** What the admin client sends for an action: its method, its path as the client expands it, and the body. */
function sent(action: AdminAction) {
  if (action.kind !== 'call') return action;
  const { method, path } = ADMIN_OPERATIONS[action.operation];
  const query = new URLSearchParams(action.query).toString();
  return {
    kind: 'request',
    method,
    path: `${expandPath(path, action.params ?? {})}${query ? `?${query}` : ''}`,
    ...(action.body ? { body: action.body } : {}),
  };
}

const action = (line: string) => sent(parseAdminArgs(line.split(' ').filter((w) => w !== '')).action);

describe('parseAdminArgs', () => {
  it('maps accounts create to POST /admin/v1/accounts with the given fields only', () => {
    expect(action('accounts create --email a@example.com --plan pro')).toEqual({
      kind: 'request',
      method: 'POST',
      path: '/admin/v1/accounts',
      body: { email: 'a@example.com', plan: 'pro' },
    });
    expect(
      sent(
        parseAdminArgs(['accounts', 'create', '--email=b@example.com', '--plan', 'team', '--name', 'Bea Ops']).action,
      ),
    ).toEqual({
      kind: 'request',
      method: 'POST',
      path: '/admin/v1/accounts',
      body: { email: 'b@example.com', plan: 'team', name: 'Bea Ops' },
    });
  });

  it('maps the account, key and member commands to their admin routes', () => {
    expect(action('accounts show acc-1')).toEqual({ kind: 'request', method: 'GET', path: '/admin/v1/accounts/acc-1' });
    expect(action('accounts set-plan acc-1 free')).toEqual({
      kind: 'request',
      method: 'PATCH',
      path: '/admin/v1/accounts/acc-1',
      body: { plan: 'free' },
    });
    expect(action('keys create acc-1 --name ci')).toEqual({
      kind: 'request',
      method: 'POST',
      path: '/admin/v1/accounts/acc-1/api-keys',
      body: { name: 'ci' },
    });
    expect(action('keys create acc-1')).toEqual({
      kind: 'request',
      method: 'POST',
      path: '/admin/v1/accounts/acc-1/api-keys',
      body: {},
    });
    expect(action('keys revoke key-9')).toEqual({
      kind: 'request',
      method: 'DELETE',
      path: '/admin/v1/api-keys/key-9',
    });
    expect(action('members set ws-1 acc-2 viewer')).toEqual({
      kind: 'request',
      method: 'PUT',
      path: '/admin/v1/workspaces/ws-1/members/acc-2',
      body: { role: 'viewer' },
    });
    expect(action('audit')).toEqual({ kind: 'request', method: 'GET', path: '/admin/v1/audit-events' });
    expect(action('audit --action api_key.issue --account acc-1 --limit 20 --before 99')).toEqual({
      kind: 'request',
      method: 'GET',
      path: '/admin/v1/audit-events?action=api_key.issue&accountId=acc-1&limit=20&before=99',
    });
    expect(action('members remove ws-1 acc-2')).toEqual({
      kind: 'request',
      method: 'DELETE',
      path: '/admin/v1/workspaces/ws-1/members/acc-2',
    });
    expect(action('workspaces create --name Platform --owner acc-1')).toEqual({
      kind: 'request',
      method: 'POST',
      path: '/admin/v1/workspaces',
      body: { name: 'Platform', ownerAccountId: 'acc-1' },
    });
    expect(action('private-skills create acc-1 --name Notes')).toEqual({
      kind: 'request',
      method: 'POST',
      path: '/admin/v1/accounts/acc-1/private-skills',
      body: { name: 'Notes' },
    });
  });

  it('maps the profile commands: links, invitations, sign-out everywhere, scoped keys and roll', () => {
    const post = (path: string, body?: object) => ({
      kind: 'request',
      method: 'POST',
      path,
      ...(body ? { body } : {}),
    });
    expect(action('accounts reset-link acc-1')).toEqual(
      post('/admin/v1/accounts/acc-1/links', { purpose: 'password-reset' }),
    );
    expect(action('accounts sign-in-link acc-1')).toEqual(
      post('/admin/v1/accounts/acc-1/links', { purpose: 'sign-in' }),
    );
    expect(action('accounts sign-out acc-1')).toEqual({
      kind: 'request',
      method: 'DELETE',
      path: '/admin/v1/accounts/acc-1/sessions',
    });
    expect(action('invitations create')).toEqual(post('/admin/v1/invitations'));
    expect(action('keys list acc-1')).toEqual({
      kind: 'request',
      method: 'GET',
      path: '/admin/v1/accounts/acc-1/api-keys',
    });
    expect(action('keys create acc-1 --name bot --scopes search:read,collections:read --expires-in-days 30')).toEqual(
      post('/admin/v1/accounts/acc-1/api-keys', {
        name: 'bot',
        scopes: ['search:read', 'collections:read'],
        expiresInDays: 30,
      }),
    );
    expect(action('keys create acc-1 --expires-in-days never')).toEqual(
      post('/admin/v1/accounts/acc-1/api-keys', { expiresInDays: null }),
    );
    expect(action('keys roll key-9 --grace-seconds 3600')).toEqual(
      post('/admin/v1/api-keys/key-9/roll', { graceSeconds: 3600 }),
    );
    expect(action('keys roll key-9')).toEqual(post('/admin/v1/api-keys/key-9/roll', { graceSeconds: 0 }));
    expect(() => action('keys roll key-9 --grace-seconds soon')).toThrow(
      'keys roll: --grace-seconds must be a whole number',
    );
  });

  it('maps reindex to following a new job, or the given one', () => {
    expect(action('reindex')).toEqual({ kind: 'reindex' });
    expect(action('reindex job-7')).toEqual({ kind: 'reindex', jobId: 'job-7' });
  });

  it('builds a skill PUT body with tags split on commas and an optional status', () => {
    const argv = [
      'skills',
      'put',
      'sql-linter',
      '--name',
      'SQL Linter',
      '--description',
      'Lints SQL.',
      '--type',
      'skill',
      '--category',
      'databases',
      '--status',
      'draft',
      '--tags',
      'sql, lint,,style',
    ];
    expect(sent(parseAdminArgs(argv).action)).toEqual({
      kind: 'request',
      method: 'PUT',
      path: '/admin/v1/skills/sql-linter',
      body: {
        name: 'SQL Linter',
        description: 'Lints SQL.',
        type: 'skill',
        category: 'databases',
        status: 'draft',
        tags: ['sql', 'lint', 'style'],
      },
    });
  });

  it('encodes path segments so a slug cannot change the route', () => {
    expect(action('skills delete a/../b')).toEqual({
      kind: 'request',
      method: 'DELETE',
      path: '/admin/v1/skills/a%2F..%2Fb',
    });
  });

  it('recognises import, help and --url', () => {
    expect(parseAdminArgs(['skills', 'import', 'data.ndjson', '--url', 'http://h:1'])).toEqual({
      url: 'http://h:1',
      action: { kind: 'import', file: 'data.ndjson' },
    });
    expect(action('')).toEqual({ kind: 'help' });
    expect(action('--help')).toEqual({ kind: 'help' });
    expect(action('accounts -h')).toEqual({ kind: 'help' });
  });

  it.each([
    ['accounts create --plan pro', 'accounts create: --email is required'],
    ['skills put x --name n --description d --type skill', 'skills put: --category is required'],
    ['members set ws-1 acc-2', 'members set: missing <role>'],
    ['members remove ws-1', 'members remove: missing <accountId>'],
    ['audit extra', 'audit: unexpected argument "extra"'],
    ['keys revoke', 'keys revoke: missing <keyId>'],
    ['keys revoke k1 k2', 'keys revoke: unexpected argument "k2"'],
    ['accounts delete acc-1', 'unknown command "accounts delete"'],
    ['frobnicate', 'unknown command "frobnicate"'],
    ['reindex a b', 'reindex: unexpected argument "b"'],
  ])('rejects "%s" with a message saying what is wrong', (line, message) => {
    expect(() => action(line)).toThrow(new UsageError(message));
  });

  it('maps the trust commands to the routes of docs/trust.md', () => {
    expect(action('scanner-create static-analysis')).toEqual({
      kind: 'request',
      method: 'POST',
      path: '/admin/v1/scanners',
      body: { name: 'static-analysis' },
    });
    expect(action('scanners')).toEqual({ kind: 'request', method: 'GET', path: '/admin/v1/scanners' });
    expect(action('scanner-revoke s1')).toEqual({ kind: 'request', method: 'DELETE', path: '/admin/v1/scanners/s1' });
    expect(sent(parseAdminArgs(['publisher-verify', 'Acme Tools', '--note', 'checked the domain']).action)).toEqual({
      kind: 'request',
      method: 'PUT',
      path: '/admin/v1/publishers/Acme%20Tools',
      body: { verified: true, note: 'checked the domain' },
    });
    expect(action('publisher-verify acme --unverify')).toEqual({
      kind: 'request',
      method: 'PUT',
      path: '/admin/v1/publishers/acme',
      body: { verified: false },
    });
    expect(
      sent(parseAdminArgs(['verdict-override', 'pdf', '1.4.0', 'clean', '--note', 'false positive']).action),
    ).toEqual({
      kind: 'request',
      method: 'PUT',
      path: '/admin/v1/skills/pdf/versions/1.4.0/override',
      body: { verdict: 'clean', note: 'false positive' },
    });
    expect(action('verdict-clear pdf 1.4.0')).toEqual({
      kind: 'request',
      method: 'DELETE',
      path: '/admin/v1/skills/pdf/versions/1.4.0/override',
    });
    expect(sent(parseAdminArgs(['yank', 'pdf', '2.0.0-rc.1', '--reason', 'steals tokens']).action)).toEqual({
      kind: 'request',
      method: 'POST',
      path: '/admin/v1/skills/pdf/versions/2.0.0-rc.1:yank',
      body: { reason: 'steals tokens' },
    });
    expect(action('reports')).toEqual({ kind: 'request', method: 'GET', path: '/admin/v1/reports' });
    expect(action('reports --status open --page 2')).toEqual({
      kind: 'request',
      method: 'GET',
      path: '/admin/v1/reports?status=open&page=2',
    });
    expect(action('report-resolve r1 --note done')).toEqual({
      kind: 'request',
      method: 'POST',
      path: '/admin/v1/reports/r1:resolve',
      body: { note: 'done' },
    });
    expect(action('report-dismiss r1 --note spam')).toEqual({
      kind: 'request',
      method: 'POST',
      path: '/admin/v1/reports/r1:dismiss',
      body: { note: 'spam' },
    });
    // a version cannot add a path segment nor a custom method of its own
    expect(action('yank pdf 1.0.0%2F:unyank --reason x')).toMatchObject({
      path: '/admin/v1/skills/pdf/versions/1.0.0%252F%3Aunyank:yank',
    });
  });

  it.each([
    ['verdict-override pdf 1.4.0 clean', 'verdict-override: --note is required'],
    ['yank pdf 1.4.0', 'yank: --reason is required'],
    ['report-resolve r1', 'report-resolve: --note is required'],
    ['scanner-create', 'scanner-create: missing <name>'],
    ['verdict-clear pdf', 'verdict-clear: missing <version>'],
  ])('rejects the trust command "%s" with what is missing', (line, message) => {
    expect(() => action(line)).toThrow(new UsageError(message));
  });

  it('lists every command in the usage text', () => {
    for (const command of [
      'scanner-create <name>',
      'scanners ',
      'scanner-revoke <scannerId>',
      'publisher-verify <name> [--unverify]',
      'verdict-override <slug> <version>',
      'verdict-clear <slug> <version>',
      'yank <slug> <version> --reason',
      'reports [--status',
      'report-resolve <reportId> --note',
      'report-dismiss <reportId> --note',
    ]) {
      expect(USAGE).toContain(`  ${command}`);
    }
  });

  it('rejects unknown options', () => {
    expect(() => action('accounts create --email a@b.c --plan pro --colour red')).toThrow(UsageError);
  });
});
