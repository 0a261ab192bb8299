/**
 * Releases and verdicts (docs/trust.md): the public reads, the scanner's one write, the report
 * an account files, and what operators do to a release (publish, yank, override). Publishers,
 * the handling of reports and scanner credentials: paths-moderation.ts.
 */
import { PAGE_ERRORS, parameterRef, type Message } from './components';
import { operation, schemaRef } from './operation-builder';
import type { Parameter, PathItem } from './openapi-types';

export const NOW = '2026-11-02T10:00:00.000Z';
const ADMIN = 'Admin';
const CATALOG = 'Catalog';

const slug: Parameter = {
  name: 'slug',
  in: 'path',
  required: true,
  description: "The item's slug.",
  schema: { type: 'string' },
  example: 'pdf-skill',
};
const version: Parameter = {
  name: 'version',
  in: 'path',
  required: true,
  description: "The release's exact SemVer version; one that is not SemVer names no release (404).",
  schema: { type: 'string' },
  example: '1.4.0',
};
const skillMissing: Message[] = [['skill.notFound', { slug: 'no-such-skill' }]];
const releaseMissing: Message[] = [...skillMissing, ['release.notFound', { slug: 'pdf-skill', version: '9.9.9' }]];

const exampleRelease = {
  version: '1.4.0',
  publishedAt: NOW,
  digest: 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  source: { repository: 'https://github.com/acme/pdf-skill', ref: 'v1.4.0' },
  yanked: null,
  verdict: 'clean',
  publisherVerified: true,
};
const exampleDetail = {
  ...exampleRelease,
  scans: [{ scanner: 'static-analysis', verdict: 'clean', summary: 'no findings', reportUrl: null, recordedAt: NOW }],
  override: null,
};
export const page = { page: 1, limit: 20, total: 1, totalPages: 1, hasMore: false };
export const exampleReport = {
  id: '5b0e8c9e-3f1d-4c57-9d0a-0c6f1b1d2e3f',
  skill: { slug: 'pdf-skill', name: 'PDF skill' },
  reason: 'credential-theft',
  text: 'Reads ~/.aws/credentials during install',
  status: 'open',
  reporterAccountId: '0d6f7a3e-1c2b-4e5f-8a9b-7c6d5e4f3a2b',
  createdAt: NOW,
  handledAt: null,
  note: null,
};

function releaseWrite(
  operationId: string,
  summary: string,
  description: string,
  body?: { schema: string; value: object },
) {
  return operation({
    operationId,
    summary,
    description,
    tag: ADMIN,
    kind: 'admin',
    parameters: [slug, version],
    ...(body
      ? { body: { schema: schemaRef(body.schema), examples: { example: { summary: 'Example', value: body.value } } } }
      : {}),
    success: {
      status: '200',
      description: 'The release as it is now.',
      schema: schemaRef('ReleaseResult'),
      example: { data: { release: exampleDetail } },
    },
    errors: {
      ...(body
        ? {
            '400': [['validation.required', { field: body.schema === 'YankRequest' ? 'reason' : 'note' }]] as Message[],
          }
        : {}),
      '404': releaseMissing,
    },
  });
}

export const trustPaths: Record<string, PathItem> = {
  '/api/v1/skills/{slug}/versions': {
    get: operation({
      operationId: 'listSkillVersions',
      summary: 'The releases of an item',
      description:
        'Newest first by SemVer precedence, yanked ones included, without their scans. Scope: `search:read`.',
      tag: CATALOG,
      kind: 'public',
      conditional: true,
      parameters: [slug, parameterRef('Page'), parameterRef('Limit')],
      success: {
        status: '200',
        description: 'One page of releases.',
        schema: schemaRef('ReleaseList'),
        example: { data: { versions: [exampleRelease], pagination: page } },
      },
      errors: { '400': PAGE_ERRORS, '404': skillMissing },
    }),
  },
  '/api/v1/skills/{slug}/versions/{version}': {
    get: operation({
      operationId: 'getSkillVersion',
      summary: "One release, with each scanner's latest scan and the override",
      description: 'A yanked release stays readable here. Scope: `search:read`.',
      tag: CATALOG,
      kind: 'public',
      conditional: true,
      parameters: [slug, version],
      success: {
        status: '200',
        description: 'The release.',
        schema: schemaRef('ReleaseResult'),
        example: { data: { release: exampleDetail } },
      },
      errors: { '404': releaseMissing },
    }),
  },
  '/api/v1/skills/{slug}/versions/{version}/verdicts': {
    get: operation({
      operationId: 'listSkillVersionVerdicts',
      summary: 'The verdict history of a release',
      description: 'Every scan, override and cleared override, newest first. Scope: `search:read`.',
      tag: CATALOG,
      kind: 'public',
      conditional: true,
      parameters: [slug, version, parameterRef('Page'), parameterRef('Limit')],
      success: {
        status: '200',
        description: 'One page of the history.',
        schema: schemaRef('VerdictHistory'),
        example: {
          data: {
            verdicts: [
              {
                kind: 'scan',
                scanner: 'static-analysis',
                verdict: 'clean',
                summary: 'no findings',
                reportUrl: null,
                note: null,
                recordedAt: NOW,
              },
            ],
            pagination: page,
          },
        },
      },
      errors: { '400': PAGE_ERRORS, '404': releaseMissing },
    }),
    post: operation({
      operationId: 'recordSkillVersionVerdict',
      summary: "Record a scanner's verdict on a release",
      description:
        "A scanner credential (`Bearer sks_…`) only: an API key or a console session is a 403. The scan carries the credential's name. " +
        "The release's verdict becomes the worst of each scanner's latest, unless an operator's override is in force.",
      tag: CATALOG,
      kind: 'scanner',
      parameters: [slug, version],
      body: {
        schema: schemaRef('NewVerdict'),
        examples: {
          clean: {
            summary: 'A clean scan',
            value: { verdict: 'clean', summary: 'no findings', reportUrl: 'https://scanner.example.com/r/1' },
          },
        },
      },
      success: {
        status: '201',
        description: 'The release with its new verdict.',
        schema: schemaRef('ReleaseResult'),
        example: { data: { release: exampleDetail } },
      },
      errors: {
        '400': [
          ['validation.oneOf', { field: 'verdict', values: 'clean, suspicious, malicious' }],
          ['validation.unknownField', { field: 'scanner' }],
        ],
        '404': releaseMissing,
      },
    }),
  },
  '/api/v1/skills/{slug}/reports': {
    post: operation({
      operationId: 'reportSkill',
      summary: 'Report an item to the operators',
      description: `An active public item (a blocked one included). At most REPORTS_PER_ACCOUNT_PER_DAY (20) per account per 24 h. Scope: \`search:read\`.`,
      tag: CATALOG,
      kind: 'public',
      parameters: [slug],
      body: {
        schema: schemaRef('NewReport'),
        examples: {
          theft: {
            summary: 'Credential theft',
            value: { reason: 'credential-theft', text: 'Reads ~/.aws/credentials' },
          },
        },
      },
      success: {
        status: '201',
        description: 'The report, open.',
        schema: schemaRef('ReportResult'),
        example: { data: { report: exampleReport } },
      },
      errors: {
        '400': [
          [
            'validation.oneOf',
            {
              field: 'reason',
              values: 'malware, credential-theft, prompt-injection, impersonation, spam, broken, other',
            },
          ],
        ],
        '404': skillMissing,
        '429': [
          ['report.rateLimited', { limit: 20, seconds: 3600 }],
          ['rateLimit.exceeded', { seconds: 12 }],
        ],
      },
    }),
  },
  '/admin/v1/skills/{slug}/versions': {
    post: operation({
      operationId: 'adminPublishRelease',
      summary: 'Publish a release of an item',
      description:
        'Immutable: the same version with the same digest answers 200 (a retry); with another digest 409 naming both. At most 1,000 per item.',
      tag: ADMIN,
      kind: 'admin',
      parameters: [slug],
      body: {
        schema: schemaRef('NewRelease'),
        examples: {
          release: {
            summary: 'A release',
            value: { version: '1.4.0', digest: exampleRelease.digest, source: exampleRelease.source },
          },
        },
      },
      success: {
        status: '201',
        description: 'Published.',
        schema: schemaRef('ReleaseResult'),
        example: { data: { release: exampleDetail } },
      },
      errors: {
        '400': [
          ['validation.required', { field: 'digest' }],
          ['release.semver', { field: 'version' }],
        ],
        '404': skillMissing,
        '409': [
          [
            'release.digestConflict',
            { slug: 'pdf-skill', version: '1.4.0', existing: exampleRelease.digest, given: `sha256:${'0'.repeat(64)}` },
          ],
          ['release.tooMany', { limit: 1000 }],
        ],
      },
    }),
  },
  '/admin/v1/skills/{slug}/versions/{version}:yank': {
    post: releaseWrite(
      'adminYankRelease',
      'Yank a release',
      'It leaves `latestVersion` and stays readable by its version.',
      {
        schema: 'YankRequest',
        value: { reason: 'ships a credential stealer' },
      },
    ),
  },
  '/admin/v1/skills/{slug}/versions/{version}:unyank': {
    post: releaseWrite(
      'adminUnyankRelease',
      'Un-yank a release',
      'Restores it; a release not yanked answers as it is.',
    ),
  },
  '/admin/v1/skills/{slug}/versions/{version}/override': {
    put: releaseWrite(
      'adminOverrideVerdict',
      "Override a release's verdict",
      'The override wins over every scan until cleared; kept in the history.',
      {
        schema: 'VerdictOverride',
        value: { verdict: 'clean', note: 'false positive, reviewed by hand' },
      },
    ),
    delete: releaseWrite(
      'adminClearVerdictOverride',
      'Clear the override',
      'The scans decide again; kept in the history.',
    ),
  },
};
