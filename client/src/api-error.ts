/** A non-2xx answer of the API: its status, the localised message and the request id to quote. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    message: string,
    /** `X-Request-Id` of the answer; quote it when reporting a problem */
    readonly requestId: string | undefined,
    /** seconds from `Retry-After` (429, 503), when sent */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/**
 * No answer at all: the connection was refused or dropped, the name did not
 * resolve. Unlike an ApiError, asking again later may well succeed.
 */
export class UnreachableError extends Error {
  override readonly name = 'UnreachableError';

  constructor(
    /** the API's base URL the client was given */
    readonly baseUrl: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`cannot reach ${baseUrl || 'the API'} (${reason})`, options);
  }
}
