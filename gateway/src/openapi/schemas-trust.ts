/**
 * Schemas of releases, verdicts, publishers, reports and scanner credentials
 * (docs/trust.md). Public answers are closed like the rest of the public
 * API; admin ones stay open to extra fields, as in schemas-admin.ts.
 */
import { envelope } from './schemas-public';
import {
  REPORT_REASONS,
  closed,
  digest,
  httpsUrl,
  judged,
  nullableText,
  releaseFields,
  releaseNames,
  reportUrl,
  source,
  summary,
  version,
} from './schemas-release';
import type { JsonSchema } from './openapi-types';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const uuid: JsonSchema = { type: 'string', format: 'uuid' };
const timestamp: JsonSchema = { type: 'string', format: 'date-time' };

const scan = closed(['scanner', 'verdict', 'summary', 'reportUrl', 'recordedAt'], {
  scanner: { type: 'string', description: "The scanner credential's name" },
  verdict: judged,
  summary,
  reportUrl,
  recordedAt: timestamp,
});
const override: JsonSchema = {
  oneOf: [
    { type: 'null' },
    closed(['verdict', 'note', 'recordedAt'], { verdict: judged, note: { type: 'string' }, recordedAt: timestamp }),
  ],
  description: "The operator's override in force, or null",
};

const report = {
  type: 'object',
  required: ['id', 'skill', 'reason', 'text', 'status', 'reporterAccountId', 'createdAt', 'handledAt', 'note'],
  properties: {
    id: uuid,
    skill: {
      type: 'object',
      required: ['slug', 'name'],
      properties: { slug: { type: 'string' }, name: { type: 'string' } },
    },
    reason: { type: 'string', enum: [...REPORT_REASONS] },
    text: { type: 'string', maxLength: 2000 },
    status: { type: 'string', enum: ['open', 'resolved', 'dismissed'] },
    reporterAccountId: uuid,
    createdAt: timestamp,
    handledAt: { type: ['string', 'null'], format: 'date-time' },
    note: nullableText,
  },
} satisfies JsonSchema;

const publisher: JsonSchema = {
  type: 'object',
  required: ['name', 'verified', 'verifiedAt', 'note', 'itemCount'],
  properties: {
    name: { type: 'string' },
    verified: { type: 'boolean' },
    verifiedAt: { type: ['string', 'null'], format: 'date-time' },
    note: nullableText,
    itemCount: { type: 'integer', minimum: 0, description: 'Public items, not deleted, carrying the name' },
  },
};

const scanner: JsonSchema = {
  type: 'object',
  required: ['id', 'name', 'createdAt', 'revokedAt'],
  properties: {
    id: uuid,
    name: { type: 'string', pattern: '^[a-z0-9-]{1,64}$' },
    createdAt: timestamp,
    revokedAt: { type: ['string', 'null'], format: 'date-time' },
  },
};

const pagination = ref('Pagination');

export const trustSchemas: Record<string, JsonSchema> = {
  Release: closed([...releaseNames, 'publisherVerified'], {
    ...releaseFields,
    publisherVerified: { type: 'boolean' },
    scans: { type: 'array', items: scan, description: "One release only: each scanner's latest scan" },
    override,
  }),
  ReleaseResult: envelope({ release: ref('Release') }),
  ReleaseList: envelope({ versions: { type: 'array', items: ref('Release') }, pagination }),
  VerdictHistoryEntry: closed(['kind', 'scanner', 'verdict', 'summary', 'reportUrl', 'note', 'recordedAt'], {
    kind: { type: 'string', enum: ['scan', 'override', 'override-cleared'] },
    scanner: nullableText,
    verdict: { oneOf: [{ type: 'null' }, judged] },
    summary: nullableText,
    reportUrl,
    note: nullableText,
    recordedAt: timestamp,
  }),
  VerdictHistory: envelope({ verdicts: { type: 'array', items: ref('VerdictHistoryEntry') }, pagination }),
  NewVerdict: closed(['verdict', 'summary'], { verdict: judged, summary, reportUrl: httpsUrl(2000) }),
  NewRelease: closed(['version', 'digest', 'source'], { version, digest, publishedAt: timestamp, source }),
  YankRequest: closed(['reason'], { reason: { type: 'string', minLength: 1, maxLength: 500 } }),
  VerdictOverride: closed(['verdict', 'note'], {
    verdict: judged,
    note: { type: 'string', minLength: 1, maxLength: 500 },
  }),
  Report: { ...report, additionalProperties: false },
  NewReport: closed(['reason'], {
    reason: { type: 'string', enum: [...REPORT_REASONS] },
    text: { type: 'string', maxLength: 2000, default: '' },
  }),
  ReportResult: envelope({ report: ref('Report') }),
  ReportList: envelope({ reports: { type: 'array', items: ref('Report') }, pagination }),
  ReportNote: closed(['note'], { note: { type: 'string', minLength: 1, maxLength: 1000 } }),
  Publisher: publisher,
  PublisherResult: envelope({ publisher: ref('Publisher') }),
  PublisherList: envelope({ publishers: { type: 'array', items: ref('Publisher') }, pagination }),
  PublisherUpdate: closed(['verified'], { verified: { type: 'boolean' }, note: { type: 'string', maxLength: 500 } }),
  Scanner: scanner,
  NewScanner: closed(['name'], {
    name: {
      type: 'string',
      pattern: '^[a-z0-9-]{1,64}$',
      description: 'The name its verdicts carry; unique among active scanners',
    },
  }),
  IssuedScanner: envelope({
    scanner: ref('Scanner'),
    token: { type: 'string', pattern: '^sks_[0-9A-Za-z]{40}$', description: 'Shown once; stored only as its SHA-256' },
  }),
  ScannerList: envelope({ scanners: { type: 'array', items: ref('Scanner') } }),
  ScannerResult: envelope({ scanner: ref('Scanner') }),
};
