/**
 * The admin and scanner clients of @skills/client against the OpenAPI
 * document: every admin operation of the document is a method of
 * SkillsAdminClient and every table entry a documented operation (same
 * method, path and operationId), the scanner's route is SkillsScannerClient's,
 * and a full value of each hand-written admin type is valid for its schema.
 */
import {
  ADMIN_OPERATIONS,
  SCANNER_OPERATIONS,
  type AccountDetail,
  type AdminItemPage,
  type AdminMember,
  type AdminSkill,
  type AdminWorkspace,
  type AuditEventPage,
  type CreateAccountInput,
  type IssueApiKeyInput,
  type NewApiKey,
  type OneTimeLink,
  type ReindexJob,
  type RolledApiKey,
  type SignUpInvitation,
  type SkillInput,
  type VerdictInput,
} from '@skills/client';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../src/openapi/document';
import { HTTP_METHODS, type Operation } from '../../src/openapi/openapi-types';
import { assertMatchesOpenApi } from '../../src/testing';

const ID = '0b7e5d1c-3f4a-4c8e-9d2b-6a1f0e9c7b35';
const NOW = '2026-11-21T09:30:00.000Z';
const admin = { 'content-type': 'application/json', 'x-request-id': 'r1' };
const noStore = { ...admin, 'cache-control': 'no-store' };

/** `operationId` → `METHOD path` of every documented operation. */
const documented = new Map(
  Object.entries(openApiDocument.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((m) => {
      const op = item[m] as Operation | undefined;
      return op ? [[op.operationId, `${m.toUpperCase()} ${path}`] as const] : [];
    }),
  ),
);

describe('the admin and scanner clients against the OpenAPI document', () => {
  it('have one method per admin operation, with the same method, path and operationId, and the scanner route', () => {
    const table = (ops: Record<string, { method: string; path: string }>) =>
      Object.entries(ops).map(([name, { method, path }]) => `${name} ${method} ${path}`);
    const adminOps = [...documented]
      .filter(([, route]) => route.split(' ')[1]?.startsWith('/admin/v1/'))
      .map(([name, route]) => `${name} ${route}`);
    expect(adminOps.length).toBeGreaterThan(30);
    expect(table(ADMIN_OPERATIONS).sort()).toEqual(adminOps.sort());
    expect(table(SCANNER_OPERATIONS)).toEqual([
      `recordSkillVersionVerdict ${documented.get('recordSkillVersionVerdict')}`,
    ]);
  });

  const account = { id: ID, email: 'ana@example.com', name: null, plan: 'pro' as const };
  const key = {
    id: ID,
    name: 'ci',
    prefix: 'sk_live_abcd',
    scopes: ['search:read' as const],
    createdAt: NOW,
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
    workspaceId: null,
  };

  it('types accounts, keys and links as the document does', () => {
    const detail: Required<AccountDetail> = { account, apiKeys: [key] };
    expect(() => assertMatchesOpenApi('GET', `/admin/v1/accounts/${ID}`, 200, admin, { data: detail })).not.toThrow();
    expect(() =>
      assertMatchesOpenApi('PATCH', `/admin/v1/accounts/${ID}`, 200, admin, { data: { account } }),
    ).not.toThrow();
    const issued: Required<NewApiKey> = { ...key, key: `sk_live_${'a1B2'.repeat(8)}` };
    expect(() =>
      assertMatchesOpenApi('POST', `/admin/v1/accounts/${ID}/api-keys`, 201, noStore, { data: { apiKey: issued } }),
    ).not.toThrow();
    const rolled: Required<RolledApiKey> = { apiKey: issued, previous: key };
    expect(() =>
      assertMatchesOpenApi('POST', `/admin/v1/api-keys/${ID}/roll`, 201, noStore, { data: rolled }),
    ).not.toThrow();
    const link: Required<OneTimeLink> = {
      purpose: 'password-reset',
      url: 'http://127.0.0.1:8080/console/reset#token=x',
      expiresAt: NOW,
    };
    expect(() =>
      assertMatchesOpenApi('POST', `/admin/v1/accounts/${ID}/links`, 201, noStore, { data: { link } }),
    ).not.toThrow();
    const invitation: Required<SignUpInvitation> = {
      url: 'http://127.0.0.1:8080/console/sign-up#invitation=x',
      expiresAt: NOW,
    };
    expect(() =>
      assertMatchesOpenApi('POST', '/admin/v1/invitations', 201, noStore, { data: { invitation } }),
    ).not.toThrow();
  });

  it('types the catalog, workspace, audit and reindex answers as the document does', () => {
    const skill: Required<AdminSkill> = {
      id: ID,
      slug: 'git-helper',
      name: 'Git helper',
      type: 'skill',
      status: 'active',
      category: 'dev',
      updatedAt: NOW,
    };
    expect(() =>
      assertMatchesOpenApi('PUT', '/admin/v1/skills/git-helper', 200, admin, { data: { skill } }),
    ).not.toThrow();
    const items: Required<AdminItemPage> = { items: [{ id: ID, name: 'Git helper', status: 'deleted' }], next: ID };
    expect(() => assertMatchesOpenApi('GET', '/admin/v1/items', 200, admin, { data: items })).not.toThrow();
    const audit: Required<AuditEventPage> = {
      events: [
        {
          id: '42',
          at: NOW,
          action: 'api_key.issue',
          actor: { kind: 'admin' },
          targetAccountId: ID,
          target: ID,
          requestId: 'r1',
          clientAddress: '127.0.0.1',
          details: { prefix: 'sk_live_abcd' },
        },
      ],
      nextBefore: '42',
    };
    expect(() => assertMatchesOpenApi('GET', '/admin/v1/audit-events', 200, admin, { data: audit })).not.toThrow();
    const workspace: Required<AdminWorkspace> = { id: ID, name: 'Platform' };
    expect(() =>
      assertMatchesOpenApi('POST', '/admin/v1/workspaces', 201, admin, { data: { workspace } }),
    ).not.toThrow();
    const member: Required<AdminMember> = { workspaceId: ID, accountId: ID, role: 'viewer' };
    expect(() =>
      assertMatchesOpenApi('PUT', `/admin/v1/workspaces/${ID}/members/${ID}`, 200, admin, { data: { member } }),
    ).not.toThrow();
    const job: Required<ReindexJob> = {
      id: ID,
      status: 'failed',
      indexed: 10,
      total: 20,
      startedAt: NOW,
      finishedAt: NOW,
      error: 'gone',
    };
    expect(() => assertMatchesOpenApi('GET', `/admin/v1/reindex/${ID}`, 200, admin, { data: { job } })).not.toThrow();
  });

  it('types the admin and scanner request bodies as the document does', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const schemas = openApiDocument.components.schemas;
    const valid = (schema: string, value: object) =>
      ajv.validate({ ...(schemas[schema] as object), components: openApiDocument.components }, value);
    const create: Required<CreateAccountInput> = { email: 'ana@example.com', plan: 'team', name: 'Ana' };
    // the two ends are exclusive: each is checked alone
    const issue: Required<Omit<IssueApiKeyInput, 'expiresAt'>> = {
      name: 'ci',
      scopes: ['collections:read'],
      expiresInDays: null,
    };
    const issueUntil: Required<Omit<IssueApiKeyInput, 'expiresInDays'>> = {
      name: 'ci',
      scopes: ['collections:read'],
      expiresAt: NOW,
    };
    const skill: Required<SkillInput> = {
      name: 'Git helper',
      category: 'dev',
      description: 'Writes commits',
      type: 'plugin',
      status: 'draft',
      tags: ['git'],
      publisher: 'Acme',
      version: '1.4.0',
      license: 'MIT',
      repositoryUrl: 'https://github.com/acme/git-helper',
      homepageUrl: null,
      downloads: 3,
    };
    const verdict: Required<VerdictInput> = {
      verdict: 'suspicious',
      summary: 'eval of a download',
      reportUrl: 'https://scan.example.com/1',
    };
    expect([
      valid('CreateAccount', create),
      valid('CreateApiKey', issue),
      valid('CreateApiKey', issueUntil),
      valid('SkillInput', skill),
      valid('NewVerdict', verdict),
    ]).toEqual([true, true, true, true, true]);
    expect(valid('SkillInput', { ...skill, status: 'deleted' })).toBe(false);
  });
});
