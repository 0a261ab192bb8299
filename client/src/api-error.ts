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
