/**
 * Builds one operation from a short spec, adding what every operation of its
 * kind shares (security, Accept-Language, the common error statuses with
 * their English and French texts), so the path files list only what differs.
 */
import {
  errorResponse,
  headerRef,
  parameterRef,
  publicHeaders,
  responseRef,
  schemaRef,
  type Message,
} from './components';
import type { Example, Header, JsonSchema, Operation, Parameter, Reference, Response } from './openapi-types';

/**
 * `public`: API key (or the account's console session); `session`: a console session only; `admin`: admin token;
 * `scanner`: a scanner credential only; `open`: no credentials.
 */
export type OperationKind = 'public' | 'session' | 'admin' | 'scanner' | 'open';

export interface OperationSpec {
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  kind: OperationKind;
  parameters?: Array<Parameter | Reference>;
  body?: { schema: JsonSchema; contentType?: string; examples?: Record<string, Example>; description?: string };
  success: {
    status: string;
    description: string;
    schema?: JsonSchema;
    contentType?: string;
    example?: unknown;
    headers?: Record<string, Header | Reference>;
  };
  /** A public GET: ETag, If-None-Match and 304. */
  conditional?: boolean;
  /** A create that honours `Idempotency-Key`. */
  idempotent?: boolean;
  /** A write that honours `If-Match` (412 when the ETag named is not the current one). */
  ifMatch?: boolean;
  /** Messages of the statuses specific to the operation. */
  errors?: Partial<Record<'400' | '401' | '403' | '404' | '409' | '412' | '413' | '422' | '429', Message[]>>;
}

const DESCRIPTIONS: Record<string, string> = {
  '400': 'Validation failed; the message names the field and the bound.',
  '401': 'Not signed in, or the credentials are wrong.',
  '429': 'Too many attempts; retry after `Retry-After` seconds.',
  '403': 'Not allowed.',
  '404': 'Not found.',
  '409': 'Conflicts with the current state.',
  '412': 'The collection changed since the ETag sent in `If-Match` was read; nothing was changed.',
  '413': 'Body too large.',
  '422': 'Refused by the workspace policy (docs/governance.md): the message names the first rule broken.',
};

/** What a key without the route's scope, or a console session's write without CSRF or Origin, is refused with. */
export const SCOPE_AND_SESSION_REFUSALS: Message[] = [
  ['auth.missingScope', { scope: 'collections:write' }],
  ['session.csrf'],
  ['session.origin'],
];

export function operation(spec: OperationSpec): Operation {
  const responses: Record<string, Response | Reference> = { [spec.success.status]: successResponse(spec) };
  if (spec.conditional) responses['304'] = responseRef('NotModified');
  for (const [status, messages] of Object.entries(spec.errors ?? {})) {
    if (status === '403' && (spec.kind === 'public' || spec.kind === 'session')) continue; // merged with the common messages below
    // an admin operation's own refusals, and the scanner credential's that every admin operation shares
    const all: Message[] =
      status === '403' && spec.kind === 'admin' ? [...messages, ['auth.scannerVerdictsOnly']] : messages;
    responses[status] = errorResponse(DESCRIPTIONS[status] ?? status, all);
  }
  Object.assign(responses, commonErrors(spec));
  const parameters: Array<Parameter | Reference> = [...(spec.parameters ?? []), parameterRef('AcceptLanguage')];
  if (spec.conditional) parameters.push(parameterRef('IfNoneMatch'));
  if (spec.idempotent) parameters.push(parameterRef('IdempotencyKey'));
  if (spec.ifMatch) {
    parameters.push(parameterRef('IfMatch'));
    responses['412'] ??= errorResponse(DESCRIPTIONS['412'] as string, [['collection.changed']]);
  }
  const op: Operation = {
    operationId: spec.operationId,
    summary: spec.summary,
    tags: [spec.tag],
    parameters,
    responses,
  };
  if (spec.description) op.description = spec.description;
  if (spec.kind === 'admin') op.security = [{ adminBearer: [] }];
  if (spec.kind === 'scanner') op.security = [{ scannerBearer: [] }];
  if (spec.kind === 'session') op.security = [{ sessionCookie: [] }];
  if (spec.kind === 'open') op.security = [];
  if (spec.body) {
    const { schema, contentType = 'application/json', examples, description } = spec.body;
    op.requestBody = { required: true, content: { [contentType]: examples ? { schema, examples } : { schema } } };
    if (description) op.requestBody.description = description;
  }
  return op;
}

function successResponse(spec: OperationSpec): Response {
  const { description, schema, contentType = 'application/json', example } = spec.success;
  const headers: Record<string, Header | Reference> =
    spec.kind === 'public' ? { ...publicHeaders } : { 'X-Request-Id': headerRef('XRequestId') };
  if (spec.conditional) {
    headers.ETag = headerRef('ETagUpTo1MB');
    headers['Cache-Control'] = headerRef('CacheControlRevalidate');
  }
  if (spec.idempotent) headers['Idempotent-Replayed'] = headerRef('IdempotentReplayed');
  Object.assign(headers, spec.success.headers ?? {});
  const response: Response = { description, headers };
  if (schema) {
    response.content = {
      [contentType]:
        example === undefined ? { schema } : { schema, examples: { example: { summary: 'Example', value: example } } },
    };
  }
  return response;
}

function commonErrors(spec: OperationSpec): Record<string, Response | Reference> {
  const out: Record<string, Response | Reference> = {};
  if (spec.kind === 'public') {
    out['401'] = responseRef('Unauthorized');
    const extra = spec.errors?.['403'];
    out['403'] = extra
      ? errorResponse(
          'The plan has no API access, the key lacks the scope, or the workspace role does not allow the action.',
          [['auth.planWithoutApi'], ...SCOPE_AND_SESSION_REFUSALS, ['auth.scannerVerdictsOnly'], ...extra],
        )
      : responseRef('Forbidden');
  }
  if (spec.kind === 'session') {
    out['401'] = responseRef('SessionUnauthorized');
    const extra = spec.errors?.['403'] ?? [];
    out['403'] = errorResponse(
      "Called with an API key or a scanner credential, or a state change without this site's Origin and the CSRF token.",
      [['auth.sessionOnly'], ['session.origin'], ['session.csrf'], ['auth.scannerVerdictsOnly'], ...extra],
    );
  }
  if (spec.kind === 'admin') {
    out['401'] = responseRef('AdminUnauthorized');
    if (!spec.errors?.['403']) out['403'] = responseRef('AdminForbidden');
    out['429'] = responseRef('AdminTooManyFailures');
  }
  if (spec.kind === 'scanner') {
    out['401'] = responseRef('ScannerUnauthorized');
    out['403'] = responseRef('ScannerForbidden');
    out['429'] = responseRef('AdminTooManyFailures');
  }
  if (spec.kind !== 'open') out['405'] = responseRef('MethodNotAllowed');
  if (spec.body && spec.kind !== 'open') {
    if (!spec.errors?.['413']) out['413'] = responseRef('PayloadTooLarge');
    out['415'] = responseRef('UnsupportedMediaType');
  }
  if (spec.kind === 'public' && !spec.errors?.['429']) out['429'] = responseRef('TooManyRequests');
  if (spec.kind === 'session' && !spec.errors?.['429']) out['429'] = responseRef('SessionTooManyRequests');
  if (spec.kind === 'open' && spec.body) out['415'] = responseRef('UnsupportedMediaType');
  out['500'] = responseRef('InternalError');
  if (spec.kind === 'session' || (spec.kind === 'open' && spec.body)) out['503'] = responseRef('ServiceUnavailable');
  if (spec.kind === 'public' || spec.kind === 'admin' || spec.kind === 'scanner') {
    out['502'] = responseRef('BadGateway');
    out['503'] = responseRef('ServiceUnavailable');
    out['504'] = responseRef('GatewayTimeout');
  }
  return out;
}

export { schemaRef };
