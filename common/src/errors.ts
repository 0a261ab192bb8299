/**
 * The one error hierarchy of the project. Handlers and services throw these;
 * the error middleware (http/error-handler.ts) maps each to its status and a
 * localised `{ error }` body. A message is a key of the i18n catalogue plus
 * the parameters it interpolates, so every text exists in English and French.
 */
import type { MessageKey, MessageParams } from './i18n';

export abstract class AppError extends Error {
  abstract readonly status: number;
  readonly messageKey: MessageKey;
  readonly params: MessageParams;
  /** Extra response headers (Retry-After, Allow, ...). */
  readonly headers: Record<string, string>;

  constructor(
    messageKey: MessageKey,
    params: MessageParams = {},
    options: { cause?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(messageKey, { cause: options.cause });
    this.name = new.target.name;
    this.messageKey = messageKey;
    this.params = params;
    this.headers = options.headers ?? {};
  }
}

/** 400: the request is malformed or breaks a validation rule. */
export class InputError extends AppError {
  readonly status = 400;
}
/** 401: no usable credentials. */
export class AuthenticationError extends AppError {
  readonly status = 401;
}
/** 403: authenticated, but not allowed (plan, workspace role, membership). */
export class NotAllowedError extends AppError {
  readonly status = 403;
}
/** 404: unknown resource, or one the caller may not know exists. */
export class NotFoundError extends AppError {
  readonly status = 404;
}
/** 405: the path exists, not with this method. */
export class MethodNotAllowedError extends AppError {
  readonly status = 405;
}
/** 409: conflicts with the current state (duplicate, idempotency key reuse). */
export class ConflictError extends AppError {
  readonly status = 409;
}
/** 422: well-formed, but refused by a rule of the resource (a workspace policy). */
export class UnprocessableError extends AppError {
  readonly status = 422;
}
/** 412: a precondition (If-Match) names a version other than the current one. */
export class PreconditionFailedError extends AppError {
  readonly status = 412;
}
/** 413: body over the limit. */
export class PayloadTooLargeError extends AppError {
  readonly status = 413;
}
/** 415: body not in a supported media type. */
export class UnsupportedMediaTypeError extends AppError {
  readonly status = 415;
}
/**
 * 429: a limit is reached. Every 429 says when to come back, so the wait is
 * the constructor's to turn into Retry-After; `params` defaults to that wait
 * in seconds for the messages that name it.
 */
export class RateLimitError extends AppError {
  readonly status = 429;
  constructor(
    messageKey: MessageKey,
    retryAfterSeconds: number,
    params: MessageParams = { seconds: retryAfterSeconds },
  ) {
    super(messageKey, params, { headers: { 'Retry-After': String(retryAfterSeconds) } });
  }
}
/** 502/503/504: an upstream service failed, is down, or timed out. */
export class UpstreamError extends AppError {
  readonly status: 502 | 503 | 504;
  constructor(
    status: 502 | 503 | 504,
    messageKey: MessageKey,
    params: MessageParams = {},
    options: { cause?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(messageKey, params, options);
    this.status = status;
  }
}
/** 503: this process cannot serve now (dependency down, shutting down). */
export class ServiceUnavailableError extends AppError {
  readonly status = 503;
}
/**
 * 503 by design, not by fault: a bounded queue (admission to the upstreams,
 * password hashing) is full. Answered at once with Retry-After and not
 * logged as an error: under overload that log would be the next bottleneck.
 */
export class OverloadedError extends ServiceUnavailableError {
  constructor(retryAfterSeconds: number, messageKey: MessageKey = 'server.overloaded') {
    super(messageKey, {}, { headers: { 'Retry-After': String(retryAfterSeconds) } });
  }
}
/**
 * 503 between services: the gateway's principal expired before the service
 * read it (the request waited too long somewhere). Not the caller's fault, so
 * never a 401: the gateway re-signs and retries once, or answers 503.
 */
export class PrincipalExpiredError extends ServiceUnavailableError {}
