/**
 * Shared headers, parameters and responses. Error examples are rendered from
 * the i18n catalogue in both languages, so the document cannot drift from
 * the texts the services really send.
 */
import { translate, type MessageKey, type MessageParams } from '@skills/common';
import type { Example, Header, Parameter, Reference, Response } from './openapi-types';

/** One documented message: its catalogue key and example parameters. */
export type Message = [MessageKey, MessageParams?];

/** The 400s of a paged list (`page`, `limit`, and nothing else in the query). */
export const PAGE_ERRORS: Message[] = [
  ['validation.numberMax', { field: 'limit', limit: 50 }],
  ['validation.numberMin', { field: 'page', limit: 1 }],
  ['validation.unknownField', { field: 'sort' }],
];

export const headerRef = (name: string): Reference => ({ $ref: `#/components/headers/${name}` });
export const responseRef = (name: string): Reference => ({ $ref: `#/components/responses/${name}` });
export const parameterRef = (name: string): Reference => ({ $ref: `#/components/parameters/${name}` });
export const schemaRef = (name: string): { $ref: string } => ({ $ref: `#/components/schemas/${name}` });
/** A string path parameter of one area's operations (the shared ones are `parameters` below). */
export const pathParam = (name: string, description: string): Parameter => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

const integer = { type: 'integer', minimum: 0 };

export const headers: Record<string, Header> = {
  XRequestId: {
    description:
      "Correlation id of the request: the caller's well-formed `X-Request-Id`, or a new one. Quote it when reporting a problem.",
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  // Sent on every answer past the API key check while the account's plan has a limit (every plan by
  // default); absent when the operator set the plan's limit to 0.
  RateLimitLimit: {
    description:
      'Requests the account may make per 60 s (set by its plan; all its keys share it). Absent when the plan has no limit.',
    required: false,
    schema: integer,
  },
  RateLimitRemaining: {
    description: 'Requests left now in the sliding 60 s window. Absent when the plan has no limit.',
    required: false,
    schema: integer,
  },
  RateLimitReset: {
    description:
      'Seconds until the whole budget is back if no request is made (a sliding window: up to twice the window). Absent when the plan has no limit.',
    required: false,
    schema: { type: 'integer', minimum: 1 },
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  ETag: {
    description:
      'Strong validator of this representation (a hash of the body); send it back in `If-None-Match` to get 304 when unchanged, ' +
      'or, for a collection, in `If-Match` of a PATCH or DELETE so it applies only to this version.',
    required: true,
    schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]{1,64}"$' },
  },
  // On a 200: the gateway holds at most 1 MB of an answer to hash it (docs/gateway.md "Conditional reads").
  ETagUpTo1MB: {
    description:
      'Strong validator of this representation (a hash of the body); send it back in `If-None-Match` to get 304 when unchanged. ' +
      'Set on every answer of at most 1 MB (every search answer); a larger one (a page of big collections) is streamed without it.',
    required: false,
    schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]{1,64}"$' },
  },
  CacheControl: {
    description: 'Search results may be reused from a private cache for 5 seconds: a write can stay hidden that long.',
    required: true,
    schema: { type: 'string', const: 'private, max-age=5' },
  },
  CacheControlRevalidate: {
    description: 'Collections may be stored privately but must be revalidated (`If-None-Match`) before each use.',
    required: true,
    schema: { type: 'string', const: 'private, no-cache' },
  },
  CacheControlAny: {
    description: 'The policy of the operation: `private, max-age=5` (search) or `private, no-cache` (collections).',
    required: true,
    schema: { type: 'string', enum: ['private, max-age=5', 'private, no-cache'] },
  },
  IdempotentReplayed: {
    description:
      'Present (`true`) when this is the stored answer of an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', const: 'true' },
  },
  Allow: { description: 'Methods the path accepts.', required: true, schema: { type: 'string' } },
};

/** Headers of every answer to `/api/v1` that got past the key check: the rate-limit headers are sent while the plan has a limit. */
export const publicHeaders: Record<string, Reference> = {
  'X-Request-Id': headerRef('XRequestId'),
  'RateLimit-Limit': headerRef('RateLimitLimit'),
  'RateLimit-Remaining': headerRef('RateLimitRemaining'),
  'RateLimit-Reset': headerRef('RateLimitReset'),
};

const optional = (description: string): Header => ({ description, schema: integer });

/**
 * Headers of error answers: a 401, 403 or an unknown route is refused before
 * the key is counted, so the rate-limit headers may be absent there.
 */
export const errorHeaders: Record<string, Header | Reference> = {
  'X-Request-Id': headerRef('XRequestId'),
  'RateLimit-Limit': optional('Requests allowed per window, when the account was counted.'),
  'RateLimit-Remaining': optional('Requests left in the window, when the account was counted.'),
  'RateLimit-Reset': optional('Seconds until the whole budget is back, when the account was counted.'),
};

export const parameters: Record<string, Parameter> = {
  AcceptLanguage: {
    name: 'Accept-Language',
    in: 'header',
    description:
      'Language of error messages: French when `fr` has the highest weight among `en`/`fr`, otherwise English.',
    schema: { type: 'string' },
    example: 'fr-FR,fr;q=0.9,en;q=0.5',
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    description: 'ETag of a representation the caller holds; 304 without a body when it is still current.',
    schema: { type: 'string' },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    description:
      'ETag of the collection as the caller last read it (or `*`): the write is applied only while it is still current, ' +
      'else 412 and nothing changes. Compared strongly: a `W/` tag never matches. Without it the write applies whatever changed.',
    schema: { type: 'string' },
    example: '"q0Bmx3pS7S3xUe9vQ2oKcA1b5XQhZ0Tn"',
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    description:
      'Makes a create safe to retry: the same key with the same body within 24 h replays the first response; ' +
      'the same key with another body → 409. A duplicate sent while the first runs waits for it.',
    schema: { type: 'string', pattern: '^[\\x21-\\x7E]{1,255}$' },
    example: '6f1c2a9e-5b7d-4c1e-9a53-0c8d2e7f4b11',
  },
  CollectionId: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'Personal collection id. An id that is not a UUID, or a collection of another account, gives 404.',
    schema: { type: 'string' },
    example: '0b7e5d1c-3f4a-4c8e-9d2b-6a1f0e9c7b35',
  },
  // `page` and `limit` of the collection lists (search documents its own: its page has the 10,000 window)
  Limit: {
    name: 'limit',
    in: 'query',
    description: 'Results per page.',
    schema: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
  },
  Page: {
    name: 'page',
    in: 'query',
    description: 'Page to load, from 1.',
    schema: { type: 'integer', minimum: 1, default: 1 },
  },
  WorkspaceId: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'Team workspace id.',
    schema: { type: 'string' },
    example: '5d2c8e1a-7b4f-4e9d-a3c6-1f0b9e8d7c24',
  },
  TeamCollectionId: {
    name: 'collectionId',
    in: 'path',
    required: true,
    description: 'Collection id inside the workspace.',
    schema: { type: 'string' },
    example: '9a4e2b7c-1d3f-4a6e-8b5c-2e7d0f1a9c63',
  },
};

/** `{ en, fr }` examples of an error body for each message. */
export function errorExamples(messages: Message[]): Record<string, Example> {
  const out: Record<string, Example> = {};
  for (const [key, params] of messages) {
    const name = key.replace(/\./g, '-');
    out[`${name}-en`] = { summary: `${key} (English)`, value: { error: translate(key, 'en', params ?? {}) } };
    out[`${name}-fr`] = { summary: `${key} (French)`, value: { error: translate(key, 'fr', params ?? {}) } };
  }
  return out;
}

/** An error response documenting its messages in English and French. */
export function errorResponse(
  description: string,
  messages: Message[],
  extraHeaders: Record<string, Reference> = {},
): Response {
  return {
    description,
    headers: { ...errorHeaders, ...extraHeaders },
    content: { 'application/json': { schema: schemaRef('Error'), examples: errorExamples(messages) } },
  };
}

const upstream = (description: string, messages: Message[]): Response => errorResponse(description, messages);

export const responses: Record<string, Response> = {
  Unauthorized: errorResponse(
    'Authorization header absent or malformed, or API key (or scanner credential) unknown or revoked.',
    [['auth.invalidKey'], ['auth.invalidScannerToken']],
  ),
  Forbidden: errorResponse(
    'The plan of the account does not include API access, or the key lacks the scope the operation needs; ' +
      "with a console session, a write without this site's Origin or the CSRF token; a scanner credential, which may only record verdicts.",
    [
      ['auth.planWithoutApi'],
      ['auth.missingScope', { scope: 'collections:write' }],
      ['session.csrf'],
      ['session.origin'],
      ['auth.scannerVerdictsOnly'],
    ],
  ),
  SessionUnauthorized: errorResponse('No live console session (never signed in, signed out, or expired).', [
    ['session.required'],
  ]),
  AdminUnauthorized: errorResponse('Admin token absent or wrong.', [['auth.invalidAdminToken']]),
  AdminForbidden: errorResponse('Called with a scanner credential, which may only record verdicts.', [
    ['auth.scannerVerdictsOnly'],
  ]),
  ScannerUnauthorized: errorResponse('No credential, or a scanner credential that is malformed, unknown or revoked.', [
    ['auth.invalidScannerToken'],
  ]),
  ScannerForbidden: errorResponse(
    'Called with an API key or a console session: only a scanner credential records verdicts.',
    [['auth.scannerRequired']],
  ),
  MethodNotAllowed: errorResponse(
    'The path exists, not with this method.',
    [['route.methodNotAllowed', { method: 'PUT' }]],
    {
      Allow: headerRef('Allow'),
    },
  ),
  PayloadTooLarge: errorResponse('Body over 100 kB.', [['body.tooLarge', { limit: '100kb' }]]),
  UnsupportedMediaType: errorResponse('Body not sent as JSON.', [
    ['body.unsupportedType', { type: 'application/json' }],
  ]),
  // RateLimit-* come with the account's budget; the address's budget of failed authentications refuses before any key is counted.
  TooManyRequests: errorResponse(
    "The account's rate limit (or, called with a console session, its session budget: SESSION_REQUESTS_PER_MINUTE) is exceeded, or the client address failed to authenticate too often (refused before the key or session is looked up).",
    [
      ['rateLimit.exceeded', { seconds: 12 }],
      ['auth.tooManyFailures', { seconds: 40 }],
    ],
    { 'Retry-After': headerRef('RetryAfter') },
  ),
  SessionTooManyRequests: errorResponse(
    "The account's sessions spent their request budget (SESSION_REQUESTS_PER_MINUTE, any plan), or the client address sent unknown session cookies too often (refused before the session is looked up).",
    [
      ['rateLimit.exceeded', { seconds: 12 }],
      ['auth.tooManyFailures', { seconds: 40 }],
    ],
    { 'Retry-After': headerRef('RetryAfter') },
  ),
  AdminTooManyFailures: errorResponse(
    'The client address gave a wrong admin token or scanner credential too often.',
    [['auth.tooManyFailures', { seconds: 40 }]],
    {
      'Retry-After': headerRef('RetryAfter'),
    },
  ),
  InternalError: errorResponse('Unexpected failure; the request id is logged with the cause.', [['server.internal']]),
  BadGateway: upstream('An internal service gave an invalid answer.', [['upstream.badGateway']]),
  ServiceUnavailable: errorResponse(
    'An internal service or the database is down, the server is shutting down, or it is busy and shed the request at once.',
    [['upstream.unavailable'], ['server.shuttingDown'], ['server.overloaded'], ['principal.expired']],
    { 'Retry-After': headerRef('RetryAfter') },
  ),
  GatewayTimeout: errorResponse('An internal service did not answer in time.', [['upstream.timeout']], {
    'Retry-After': headerRef('RetryAfter'),
  }),
  NotModified: {
    description: 'The representation named by `If-None-Match` is still current; no body.',
    headers: { ...publicHeaders, ETag: headerRef('ETag'), 'Cache-Control': headerRef('CacheControlAny') },
  },
};
