/**
 * The typed client (@skills/client) against the OpenAPI document: every
 * client method is an operation of the document with the same method, path
 * and operationId, every public and console operation has a client method, and a full
 * value of each hand-written type is valid for the document's schema.
 */
import {
  OPERATIONS,
  type IssuedScanner,
  type PublisherPage,
  type PublishReleaseInput,
  type ReportPage,
  type CatalogItem,
  type CreateReportInput,
  type Release,
  type ReleasePage,
  type ReleaseSummary,
  type Report,
  type VerdictHistoryPage,
  type CreatedInvitation,
  type CreateInvitationInput,
  type CreatePrivateSkillInput,
  type MemberPage,
  type MemberRole,
  type PrivateSkillPage,
  type WorkspacePage,
  type ItemDetails,
  type SearchResult,
  type CreateCollectionInput,
  type Pagination,
  type PersonalCollection,
  type PersonalCollectionPatch,
  type TeamCollection,
  type TeamCollectionPatch,
  type ApiKey,
  type AuthOptions,
  type CreateApiKeyInput,
  type InvitationPreview,
  type NewApiKey,
  type OwnApiKeys,
  type SignedIn,
  type SignUpInput,
} from '@skills/client';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../src/openapi/document';
import { HTTP_METHODS, type Operation } from '../../src/openapi/openapi-types';
import { assertMatchesOpenApi } from '../../src/testing';

const answered = {
  'content-type': 'application/json',
  'x-request-id': 'r1',
  'ratelimit-limit': '600',
  'ratelimit-remaining': '9',
  'ratelimit-reset': '9',
  etag: '"e1"',
};
/** headers of a collection read; a search answer differs in its Cache-Control */
const json = { ...answered, 'cache-control': 'private, no-cache' };
const searchJson = { ...answered, 'cache-control': 'private, max-age=5' };
const ID = '0b7e5d1c-3f4a-4c8e-9d2b-6a1f0e9c7b35';
const NOW = '2026-11-21T09:30:00.000Z';

describe('@skills/client against the OpenAPI document', () => {
  it('has one method per operation of the public API and the console, with the same method, path and operationId', () => {
    // not SkillsClient's: the scanners' own route (SkillsScannerClient's), the document itself, and the browser navigations of single sign-on (303 redirects)
    const notTheClients = new Set(['recordSkillVersionVerdict', 'openapiDocument', 'oidcStart', 'oidcCallback']);
    const documented = Object.entries(openApiDocument.paths)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, item]) =>
        HTTP_METHODS.flatMap((m) => {
          const op = item[m] as Operation | undefined;
          return op && !notTheClients.has(op.operationId) ? [`${op.operationId} ${m.toUpperCase()} ${path}`] : [];
        }),
      );
    const client = Object.entries(OPERATIONS).map(([name, { method, path }]) => `${name} ${method} ${path}`);
    expect(client.sort()).toEqual(documented.sort());
  });

  // Every field is required in these values, so TypeScript makes them complete;
  // the closed schemas of the document then reject a field it lacks or adds.
  const details: Required<ItemDetails> = {
    publisher: 'Acme',
    version: '1.4.0',
    license: 'MIT',
    repositoryUrl: 'https://github.com/acme/x',
    homepageUrl: null,
    downloads: 12,
  };
  const releaseSummary: Required<ReleaseSummary> = {
    version: '2.0.0-rc.1',
    publishedAt: NOW,
    digest: `sha256:${'ab'.repeat(32)}`,
    source: { repository: 'https://github.com/acme/x', ref: 'v2.0.0-rc.1' },
    yanked: { reason: 'broken build', at: NOW },
    verdict: 'suspicious',
  };
  const item: Required<CatalogItem> = {
    id: ID,
    slug: 'git-commit-helper',
    name: 'Git commit helper',
    description: 'Writes commit messages',
    type: 'plugin',
    category: 'developer-tools',
    tags: ['git'],
    ...details,
    latestVersion: '1.4.0',
    verdict: 'malicious',
    publisherVerified: true,
    blocked: true,
    blockedReason: 'steals credentials',
    releases: [releaseSummary],
    updatedAt: NOW,
  };
  const pagination: Required<Pagination> = { page: 1, limit: 20, total: 1, totalPages: 1, hasMore: false };
  const entryTrust = {
    latestVersion: '1.4.0',
    verdict: 'malicious' as const,
    publisherVerified: false,
    blocked: true,
    blockedReason: 'Steals tokens.',
  };
  const personal: Required<PersonalCollection> = {
    id: ID,
    name: 'Daily',
    description: '',
    skillCount: 2,
    skills: [
      {
        slug: 's',
        name: 'S',
        type: 'skill',
        category: null,
        status: 'deleted',
        visibility: 'public',
        ...details,
        ...entryTrust,
      },
      { id: ID, name: 'Mine', description: 'private', visibility: 'private' },
    ],
    createdAt: NOW,
    updatedAt: NOW,
  };
  // docs/governance.md: what a governed entry and collection add (spread, so the values hold whether the client's types list them yet or not)
  const governedEntry = {
    pin: {
      version: '1.4.0',
      digest: `sha256:${'a'.repeat(64)}`,
      verdict: 'malicious' as const,
      yanked: false,
      pinnedVerdict: 'clean' as const,
    },
    compliance: {
      complies: false,
      violations: [{ rule: 'minimumVerdict' as const, message: 'The workspace policy refuses "s"' }],
    },
    drift: [
      { kind: 'verdict-changed' as const, from: 'clean' as const, to: 'malicious' as const },
      { kind: 'newer-release' as const, version: '1.5.0' },
      { kind: 'blocked' as const },
    ],
  };
  const governed = { compliance: { complies: false, violationCount: 1 }, drift: { count: 1 } };
  const team: Required<TeamCollection> = {
    id: ID,
    workspaceId: ID,
    name: 'Kit',
    description: 'd',
    createdBy: ID,
    skillCount: 1,
    skills: [
      {
        slug: 's',
        name: 'S',
        type: 'skill',
        category: 'dev',
        status: 'active',
        visibility: 'public',
        ...details,
        ...entryTrust,
        ...governedEntry,
      },
    ],
    ...governed,
    createdAt: NOW,
    updatedAt: NOW,
  };

  it('types search results as the document does', () => {
    expect(() =>
      assertMatchesOpenApi('GET', '/api/v1/skills', 200, searchJson, { data: { skills: [item], pagination } }),
    ).not.toThrow();
    const result: Required<SearchResult> = {
      skills: [item],
      pagination,
      facets: {
        category: [{ value: 'developer-tools', count: 1 }],
        type: [{ value: 'plugin', count: 1 }],
        trust: [{ value: 'clean', count: 1 }],
        verifiedPublisher: [{ value: 'true', count: 1 }],
      },
      suggestion: { q: 'git commit', total: 4 },
      search: { mode: 'hybrid' },
    };
    expect(() => assertMatchesOpenApi('GET', '/api/v1/skills', 200, searchJson, { data: result })).not.toThrow();
  });

  it('types personal and team collections as the document does', () => {
    expect(() =>
      assertMatchesOpenApi('GET', `/api/v1/me/collections/${ID}`, 200, json, { data: { collection: personal } }),
    ).not.toThrow();
    expect(() =>
      assertMatchesOpenApi('GET', '/api/v1/me/collections', 200, json, {
        data: { collections: [personal], pagination: { page: 1, limit: 20, total: 1, totalPages: 1, hasMore: false } },
      }),
    ).not.toThrow();
    expect(() =>
      assertMatchesOpenApi('GET', `/api/v1/workspaces/${ID}/collections/${ID}`, 200, json, {
        data: { collection: team },
      }),
    ).not.toThrow();
  });

  it('types workspaces, members, invitations and private skills as the document does', () => {
    const workspaces: Required<WorkspacePage> = {
      workspaces: [{ id: ID, name: 'Platform', role: 'viewer', memberCount: 2, createdAt: NOW }],
      pagination,
    };
    expect(() => assertMatchesOpenApi('GET', '/api/v1/workspaces', 200, json, { data: workspaces })).not.toThrow();
    const members: Required<MemberPage> = {
      members: [{ accountId: ID, email: 'ana@example.com', name: null, role: 'owner', joinedAt: NOW }],
      pagination,
    };
    expect(() =>
      assertMatchesOpenApi('GET', `/api/v1/workspaces/${ID}/members`, 200, json, { data: members }),
    ).not.toThrow();
    const member: Required<MemberRole> = { accountId: ID, role: 'admin', joinedAt: NOW };
    expect(() =>
      assertMatchesOpenApi('PUT', `/api/v1/workspaces/${ID}/members/me`, 200, json, { data: { member } }),
    ).not.toThrow();
    const invitation: Required<CreatedInvitation> = {
      id: ID,
      workspaceId: ID,
      role: 'member',
      email: null,
      createdBy: ID,
      createdAt: NOW,
      expiresAt: NOW,
      url: 'http://127.0.0.1:8080/console/invitations#token=x',
      mailed: false,
    };
    expect(() =>
      assertMatchesOpenApi('POST', `/api/v1/workspaces/${ID}/invitations`, 201, json, { data: { invitation } }),
    ).not.toThrow();
    const { url: _url, mailed: _mailed, ...pending } = invitation;
    expect(() =>
      assertMatchesOpenApi('GET', `/api/v1/workspaces/${ID}/invitations`, 200, json, {
        data: { invitations: [pending] },
      }),
    ).not.toThrow();
    const skills: Required<PrivateSkillPage> = { skills: [{ id: ID, name: 'Mine', description: '' }], pagination };
    expect(() => assertMatchesOpenApi('GET', '/api/v1/me/private-skills', 200, json, { data: skills })).not.toThrow();
    expect(() =>
      assertMatchesOpenApi('GET', '/api/v1/skills/git-commit-helper', 200, json, { data: { skill: item } }),
    ).not.toThrow();
  });

  it('types releases, verdict histories and reports as the document does', () => {
    const release: Required<Release> = {
      ...releaseSummary,
      yanked: null,
      publisherVerified: false,
      scans: [
        {
          scanner: 'static-analysis',
          verdict: 'suspicious',
          summary: 'eval of a download',
          reportUrl: 'https://scan.example.com/1',
          recordedAt: NOW,
        },
      ],
      override: { verdict: 'clean', note: 'reviewed', recordedAt: NOW },
    };
    const versions = `/api/v1/skills/x/versions`;
    expect(() => assertMatchesOpenApi('GET', `${versions}/1.4.0`, 200, json, { data: { release } })).not.toThrow();
    const { scans: _scans, override: _override, ...listed } = release;
    const page: Required<ReleasePage> = { versions: [listed], pagination };
    expect(() => assertMatchesOpenApi('GET', versions, 200, json, { data: page })).not.toThrow();
    const history: Required<VerdictHistoryPage> = {
      verdicts: [
        {
          kind: 'override-cleared',
          scanner: null,
          verdict: null,
          summary: null,
          reportUrl: null,
          note: 'cleared',
          recordedAt: NOW,
        },
      ],
      pagination,
    };
    expect(() => assertMatchesOpenApi('GET', `${versions}/1.4.0/verdicts`, 200, json, { data: history })).not.toThrow();
    const report: Required<Report> = {
      id: ID,
      skill: { slug: 'x', name: 'X' },
      reason: 'prompt-injection',
      text: '',
      status: 'open',
      reporterAccountId: ID,
      createdAt: NOW,
      handledAt: null,
      note: null,
    };
    expect(() =>
      assertMatchesOpenApi('POST', '/api/v1/skills/x/reports', 201, json, { data: { report } }),
    ).not.toThrow();
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const input: Required<CreateReportInput> = { reason: 'spam', text: 'ads' };
    expect(ajv.validate(openApiDocument.components.schemas.NewReport as object, input)).toBe(true);
  });

  it('types the admin answers and bodies of docs/trust.md as the document does', () => {
    const admin = { 'content-type': 'application/json', 'x-request-id': 'r1' };
    const publishers: Required<PublisherPage> = {
      publishers: [{ name: 'Acme', verified: true, verifiedAt: NOW, note: null, itemCount: 2 }],
      pagination,
    };
    expect(() => assertMatchesOpenApi('GET', '/admin/v1/publishers', 200, admin, { data: publishers })).not.toThrow();
    const reports: Required<ReportPage> = {
      reports: [
        {
          id: ID,
          skill: { slug: 'x', name: 'X' },
          reason: 'other',
          text: 't',
          status: 'dismissed',
          reporterAccountId: ID,
          createdAt: NOW,
          handledAt: NOW,
          note: 'n',
        },
      ],
      pagination,
    };
    expect(() => assertMatchesOpenApi('GET', '/admin/v1/reports', 200, admin, { data: reports })).not.toThrow();
    const issued: Required<IssuedScanner> = {
      scanner: { id: ID, name: 'llm-review', createdAt: NOW, revokedAt: null },
      token: `sks_${'a1B2'.repeat(10)}`,
    };
    expect(() => assertMatchesOpenApi('POST', '/admin/v1/scanners', 201, admin, { data: issued })).not.toThrow();
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const release: Required<PublishReleaseInput> = {
      version: '1.4.0',
      digest: `sha256:${'0f'.repeat(32)}`,
      publishedAt: NOW,
      source: { repository: 'https://github.com/a/b', ref: 'v1.4.0' },
    };
    expect(ajv.validate(openApiDocument.components.schemas.NewRelease as object, release)).toBe(true);
    expect(
      ajv.validate(openApiDocument.components.schemas.NewRelease as object, { ...release, version: 'v1.4.0' }),
    ).toBe(false);
  });

  it("types the console's sessions, own keys and invitation previews as the document does", () => {
    const session = { 'content-type': 'application/json', 'x-request-id': 'r1', 'cache-control': 'no-store' };
    const signedIn: Required<SignedIn> = {
      account: { id: ID, email: 'ana@example.com', name: null, plan: 'free' },
      session: {
        id: ID,
        method: 'password',
        userAgent: null,
        createdAt: NOW,
        lastSeenAt: NOW,
        idleExpiresAt: NOW,
        expiresAt: NOW,
        current: true,
        recentSignInUntil: NOW,
      },
      csrfToken: 'c'.repeat(43),
    };
    expect(() => assertMatchesOpenApi('GET', '/api/v1/auth/session', 200, session, { data: signedIn })).not.toThrow();
    const options: Required<AuthOptions> = {
      signUpMode: 'invite',
      passwordResetByMail: true,
      oidc: { name: 'Acme SSO', startUrl: '/api/v1/auth/oidc/start' },
    };
    expect(() => assertMatchesOpenApi('GET', '/api/v1/auth/options', 200, session, { data: options })).not.toThrow();
    const key: Required<ApiKey> = {
      id: ID,
      name: 'ci',
      prefix: 'sk_live_abcd',
      scopes: ['search:read', 'workspaces:manage'],
      createdAt: NOW,
      expiresAt: null,
      lastUsedAt: NOW,
      revokedAt: null,
      workspaceId: ID,
    };
    const keys: Required<OwnApiKeys> = { apiKeys: [key], maxLifetimeDays: 365 };
    expect(() => assertMatchesOpenApi('GET', '/api/v1/me/api-keys', 200, session, { data: keys })).not.toThrow();
    const rolled: Required<NewApiKey> = { ...key, key: `sk_live_${'a1B2'.repeat(8)}` };
    expect(() =>
      assertMatchesOpenApi('POST', `/api/v1/me/api-keys/${ID}/roll`, 201, session, {
        data: { apiKey: rolled, previous: key },
      }),
    ).not.toThrow();
    const preview: Required<InvitationPreview> = {
      id: ID,
      role: 'viewer',
      expiresAt: NOW,
      workspace: { id: ID, name: 'Platform' },
    };
    expect(() =>
      assertMatchesOpenApi('POST', '/api/v1/invitations/preview', 200, session, { data: { invitation: preview } }),
    ).not.toThrow();
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const create: Required<CreateApiKeyInput> = {
      name: 'ci',
      scopes: ['collections:read'],
      expiresInDays: 30,
      workspaceId: ID,
    };
    expect(
      ajv.validate(
        { ...(openApiDocument.components.schemas.CreateOwnApiKey as object), components: openApiDocument.components },
        create,
      ),
    ).toBe(true);
    const signUp: Required<SignUpInput> = {
      email: 'ana@example.com',
      password: 'correct horse battery',
      name: 'Ana',
      invitation: 't',
    };
    expect(ajv.validate(openApiDocument.components.schemas.SignUp as object, signUp)).toBe(true);
  });

  it('types request bodies as the document does', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const schemas = openApiDocument.components.schemas;
    const create: Required<CreateCollectionInput> = { name: 'Kit', description: 'd' };
    const pinned = { version: '1.4.0' };
    const teamPatch: Required<TeamCollectionPatch> = {
      name: 'n',
      description: 'd',
      skillSlug: 'a',
      removeSkillSlug: 'b',
      ...pinned,
    };
    const personalPatch: Required<PersonalCollectionPatch> = {
      ...teamPatch,
      privateSkillId: ID,
      removePrivateSkillId: ID,
    };
    expect(ajv.validate(schemas.CreateCollection as object, create)).toBe(true);
    expect(ajv.validate(schemas.PatchTeamCollection as object, teamPatch)).toBe(true);
    expect(ajv.validate(schemas.PatchPersonalCollection as object, personalPatch)).toBe(true);
    expect(ajv.validate(schemas.PatchTeamCollection as object, { privateSkillId: ID })).toBe(false);
    const invite: Required<CreateInvitationInput> = { role: 'viewer', email: 'bo@example.com', expiresInDays: 30 };
    const privateSkill: Required<CreatePrivateSkillInput> = { name: 'Mine', description: 'd' };
    expect(ajv.validate(schemas.NewWorkspaceInvitation as object, invite)).toBe(true);
    expect(ajv.validate(schemas.NewWorkspaceInvitation as object, { role: 'owner' })).toBe(false);
    expect(ajv.validate(schemas.NewPrivateSkill as object, privateSkill)).toBe(true);
    expect(ajv.validate(schemas.NewMemberRole as object, { role: 'viewer' })).toBe(true);
  });
});
