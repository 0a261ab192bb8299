/**
 * What operators keep beside the releases (docs/trust.md): verified publishers, the queue of
 * reports accounts file, and the scanner credentials that record verdicts.
 */
import { PAGE_ERRORS, parameterRef, pathParam, type Message } from './components';
import { operation, schemaRef } from './operation-builder';
import type { PathItem } from './openapi-types';
import { exampleReport, NOW, page } from './paths-trust';

const ADMIN = 'Admin';

const reportId = pathParam('id', 'Report id; one that is not a UUID is a 404.');
const reportMissing: Message[] = [['report.notFound']];
const examplePublisher = {
  name: 'Acme Tools',
  verified: true,
  verifiedAt: NOW,
  note: 'checked the domain',
  itemCount: 3,
};
const exampleScanner = {
  id: '2c4e6a8b-0d1f-4a3c-8e5b-7d9f1a3c5e7b',
  name: 'static-analysis',
  createdAt: NOW,
  revokedAt: null,
};

function reportHandling(operationId: string, verb: 'resolve' | 'dismiss') {
  return operation({
    operationId,
    summary: `${verb === 'resolve' ? 'Resolve' : 'Dismiss'} a report with a note`,
    description: 'Handling is final: a handled report is a 409 naming its status.',
    tag: ADMIN,
    kind: 'admin',
    parameters: [reportId],
    body: {
      schema: schemaRef('ReportNote'),
      examples: { note: { summary: 'A note', value: { note: 'Yanked 1.4.0 and told the publisher' } } },
    },
    success: {
      status: '200',
      description: 'The handled report.',
      schema: schemaRef('ReportResult'),
      example: {
        data: {
          report: {
            ...exampleReport,
            status: verb === 'resolve' ? 'resolved' : 'dismissed',
            handledAt: NOW,
            note: 'Handled',
          },
        },
      },
    },
    errors: {
      '400': [['validation.required', { field: 'note' }]],
      '404': reportMissing,
      '409': [['report.alreadyResolved'], ['report.alreadyDismissed']],
    },
  });
}

export const moderationPaths: Record<string, PathItem> = {
  '/admin/v1/publishers': {
    get: operation({
      operationId: 'adminListPublishers',
      summary: 'Publishers, by name',
      tag: ADMIN,
      kind: 'admin',
      parameters: [
        {
          name: 'verified',
          in: 'query',
          description: 'Only verified (`true`) or unverified (`false`) ones.',
          schema: { type: 'boolean' },
        },
        parameterRef('Page'),
        parameterRef('Limit'),
      ],
      success: {
        status: '200',
        description: 'One page of publishers.',
        schema: schemaRef('PublisherList'),
        example: { data: { publishers: [examplePublisher], pagination: page } },
      },
      errors: { '400': PAGE_ERRORS },
    }),
  },
  '/admin/v1/publishers/{name}': {
    put: operation({
      operationId: 'adminSetPublisher',
      summary: 'Verify a publisher, or withdraw it',
      description: 'Every item of the publisher changes with it (an event each).',
      tag: ADMIN,
      kind: 'admin',
      parameters: [
        {
          name: 'name',
          in: 'path',
          required: true,
          description: 'The publisher name items carry.',
          schema: { type: 'string' },
          example: 'Acme Tools',
        },
      ],
      body: {
        schema: schemaRef('PublisherUpdate'),
        examples: { verify: { summary: 'Verify', value: { verified: true, note: 'checked the domain' } } },
      },
      success: {
        status: '200',
        description: 'The publisher.',
        schema: schemaRef('PublisherResult'),
        example: { data: { publisher: examplePublisher } },
      },
      errors: { '400': [['validation.required', { field: 'verified' }]] },
    }),
  },
  '/admin/v1/reports': {
    get: operation({
      operationId: 'adminListReports',
      summary: 'The reports queue',
      description: 'Newest first, every status or one.',
      tag: ADMIN,
      kind: 'admin',
      parameters: [
        {
          name: 'status',
          in: 'query',
          description: 'Only reports in this status.',
          schema: { type: 'string', enum: ['open', 'resolved', 'dismissed'] },
        },
        parameterRef('Page'),
        parameterRef('Limit'),
      ],
      success: {
        status: '200',
        description: 'One page of reports.',
        schema: schemaRef('ReportList'),
        example: { data: { reports: [exampleReport], pagination: page } },
      },
      errors: { '400': PAGE_ERRORS },
    }),
  },
  '/admin/v1/reports/{id}:resolve': { post: reportHandling('adminResolveReport', 'resolve') },
  '/admin/v1/reports/{id}:dismiss': { post: reportHandling('adminDismissReport', 'dismiss') },
  '/admin/v1/scanners': {
    get: operation({
      operationId: 'adminListScanners',
      summary: 'Scanner credentials, oldest first',
      description: 'Revoked ones included; never a token.',
      tag: ADMIN,
      kind: 'admin',
      success: {
        status: '200',
        description: 'Every scanner.',
        schema: schemaRef('ScannerList'),
        example: { data: { scanners: [exampleScanner] } },
      },
    }),
    post: operation({
      operationId: 'adminCreateScanner',
      summary: 'Issue a scanner credential',
      description:
        'The token (`sks_` + 40 characters) is in this answer only (`Cache-Control: no-store`); it is stored as its SHA-256.',
      tag: ADMIN,
      kind: 'admin',
      body: {
        schema: schemaRef('NewScanner'),
        examples: { scanner: { summary: 'A scanner', value: { name: 'static-analysis' } } },
      },
      success: {
        status: '201',
        description: 'Issued.',
        schema: schemaRef('IssuedScanner'),
        example: { data: { scanner: exampleScanner, token: `sks_${'A1b2C3d4E5'.repeat(4)}` } },
      },
      errors: {
        '400': [['validation.pattern', { field: 'name' }]],
        '409': [['scanner.nameTaken', { name: 'static-analysis' }]],
      },
    }),
  },
  '/admin/v1/scanners/{id}': {
    delete: operation({
      operationId: 'adminRevokeScanner',
      summary: 'Revoke a scanner credential',
      description:
        'Refused from the next request on this replica, within KEY_CACHE_TTL_MS on the others. Revoking again answers the same.',
      tag: ADMIN,
      kind: 'admin',
      parameters: [pathParam('id', 'Scanner id.')],
      success: {
        status: '200',
        description: 'The revoked scanner.',
        schema: schemaRef('ScannerResult'),
        example: { data: { scanner: { ...exampleScanner, revokedAt: NOW } } },
      },
      errors: { '404': [['scanner.notFound']] },
    }),
  },
};
