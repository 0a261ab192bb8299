/**
 * The release fields an item carries (docs/trust.md), apart from the rest of
 * the trust schemas so that the item's schema (schemas-public.ts) can use
 * them without an import cycle.
 */
import type { JsonSchema } from './openapi-types';

const timestamp: JsonSchema = { type: 'string', format: 'date-time' };
export const httpsUrl = (max: number): JsonSchema => ({
  type: 'string',
  format: 'uri',
  pattern: '^https://',
  maxLength: max,
});

export function closed(required: string[], properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', required, additionalProperties: false, properties };
}

export const VERDICTS = ['clean', 'suspicious', 'malicious'] as const;
export const REPORT_REASONS = [
  'malware',
  'credential-theft',
  'prompt-injection',
  'impersonation',
  'spam',
  'broken',
  'other',
] as const;
export const SEMVER_PATTERN =
  '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?$';

export const judged: JsonSchema = { type: 'string', enum: [...VERDICTS] };
/** A release's or an item's verdict: `unscanned` until a scanner or an operator judges it. */
export const verdict: JsonSchema = {
  type: 'string',
  enum: [...VERDICTS, 'unscanned'],
  description: 'The worst latest scan per scanner, or the override in force',
};
export const version: JsonSchema = {
  type: 'string',
  maxLength: 64,
  pattern: SEMVER_PATTERN,
  description: 'SemVer 2.0.0 without build metadata',
};
export const digest: JsonSchema = {
  type: 'string',
  pattern: '^sha256:[0-9a-f]{64}$',
  description: 'SHA-256 of the published artifact',
};
export const source = closed(['repository', 'ref'], {
  repository: httpsUrl(500),
  ref: {
    type: 'string',
    minLength: 1,
    maxLength: 200,
    pattern: '^[A-Za-z0-9._/-]+$',
    description: 'A commit or a tag',
  },
});
export const yanked: JsonSchema = {
  oneOf: [{ type: 'null' }, closed(['reason', 'at'], { reason: { type: 'string' }, at: timestamp })],
  description: 'null, or why and when it was yanked: it left `latestVersion` and stays readable by its version',
};
export const summary: JsonSchema = { type: 'string', minLength: 1, maxLength: 500 };
export const reportUrl: JsonSchema = { oneOf: [{ type: 'null' }, httpsUrl(2000)] };
export const nullableText: JsonSchema = { type: ['string', 'null'] };

/** A release as the changes feed carries it in `item.releases`. */
export const releaseFields: Record<string, JsonSchema> = {
  version,
  publishedAt: timestamp,
  digest,
  source,
  yanked,
  verdict,
};
export const releaseNames = Object.keys(releaseFields);

/** An item's trust fields (docs/trust.md): the first three in every answer naming one, the others where their descriptions say. */
export const itemTrustFields: Record<string, JsonSchema> = {
  latestVersion: {
    type: ['string', 'null'],
    description: 'The highest release not yanked (SemVer precedence, stable first); null without one',
  },
  verdict: { ...verdict, description: 'The verdict of the latest release; `unscanned` without one' },
  publisherVerified: { type: 'boolean', description: 'An operator verified the publisher' },
  blocked: {
    type: 'boolean',
    description: 'The latest release is `malicious`: search never shows the item. Item reads and the changes feed.',
  },
  blockedReason: {
    type: ['string', 'null'],
    description: "Why it is blocked: the override's note or the worst scan's summary; null when not blocked",
  },
  releases: {
    type: 'array',
    description:
      'Changes feed only: every release, newest first by precedence, so a mirror keeps versions and verdicts.',
    items: closed(releaseNames, releaseFields),
  },
};
