/**
 * The typed client (@skills/client) against the OpenAPI document: a full value
 * of the hand-written types of releases, verdicts, reports, the admin answers
 * of docs/trust.md and the console's own answers is valid for the document's schema.
 */
import {
  type IssuedScanner,
  type PublisherPage,
  type PublishReleaseInput,
  type ReportPage,
  type CreateReportInput,
  type Release,
  type ReleasePage,
  type Report,
  type VerdictHistoryPage,
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
import {} from '../../src/openapi/openapi-types';
import { assertMatchesOpenApi } from '../../src/testing';
import { ID, json, NOW, pagination, releaseSummary } from '../support/openapi-answers';

describe('@skills/client against the OpenAPI document', () => {
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
});
