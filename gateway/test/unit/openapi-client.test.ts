/**
 * The typed client (@skills/client) against the OpenAPI document: every
 * client method is an operation of the document with the same method, path
 * and operationId, every public and console operation has a client method, and a full
 * value of the hand-written types of search, collections, workspaces and request bodies
 * is valid for the document's schema (the other answers: openapi-client-answers.test.ts).
 */
import {
  OPERATIONS,
  type CatalogItem,
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
  type PersonalCollection,
  type PersonalCollectionPatch,
  type TeamCollection,
  type TeamCollectionPatch,
} from '@skills/client';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../src/openapi/document';
import { HTTP_METHODS, type Operation } from '../../src/openapi/openapi-types';
import { assertMatchesOpenApi } from '../../src/testing';
import { ID, json, NOW, pagination, releaseSummary, searchJson } from '../support/openapi-answers';

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
