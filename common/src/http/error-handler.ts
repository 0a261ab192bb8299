import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { AppError, MethodNotAllowedError, NotFoundError, OverloadedError } from '../errors';
import { translate } from '../i18n';
import { isDatabaseUnavailable } from '../db/errors';
import { contextOf } from './request-context';
import { translateBodyParserError, JSON_BODY_LIMIT } from './json-body';

/**
 * Seconds a client waits before it tries again after a 503 or 504 that did
 * not say otherwise (an outage, a slow or unreachable service): every such
 * answer tells the client when to come back, as admission's 503 does.
 */
const RETRY_AFTER_SECONDS = 1;

/** Sets Retry-After on a 503 or 504 answer that has none yet. */
export function retryAfterOnUnavailable(res: Response, status: number): void {
  if ((status === 503 || status === 504) && !res.hasHeader('Retry-After'))
    res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
}

/**
 * The one place errors become responses: AppError → its status and the
 * localised `{ error }`; anything else → 500 with a generic text, logged with
 * its cause and request id. 4xx are not logged as errors. Every 503 and 504
 * carries Retry-After.
 */
export function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const { requestId, lang } = contextOf(res);
    const known = translateBodyParserError(err, JSON_BODY_LIMIT);
    if (res.headersSent) {
      logger.error({ err: known, requestId }, 'error after response started');
      res.destroy();
      return;
    }
    if (known instanceof AppError) {
      if (known.status >= 500 && !(known instanceof OverloadedError))
        logger.error({ err: known, requestId, cause: known.cause }, known.messageKey);
      for (const [name, value] of Object.entries(known.headers)) res.setHeader(name, value);
      retryAfterOnUnavailable(res, known.status);
      res.status(known.status).json({ error: translate(known.messageKey, lang ?? 'en', known.params) });
      return;
    }
    if (isDatabaseUnavailable(known)) {
      // An outage, not a bug: the client may retry; the log keeps the cause.
      logger.error({ err: known, requestId, method: req.method, path: req.path }, 'database unavailable');
      retryAfterOnUnavailable(res, 503);
      res.status(503).json({ error: translate('upstream.unavailable', lang ?? 'en') });
      return;
    }
    logger.error({ err: known, requestId, method: req.method, path: req.path }, 'unhandled error');
    res.status(500).json({ error: translate('server.internal', lang ?? 'en') });
  };
}

/** Last route: nothing matched the path. */
export function notFoundHandler() {
  return (_req: Request, _res: Response, next: NextFunction): void => next(new NotFoundError('route.notFound'));
}

/** For `router.route(path).all(...)` after the allowed methods: 405 with `Allow`. */
export function methodNotAllowed(allowed: string[]) {
  const allow = allowed.join(', ');
  return (req: Request, _res: Response, next: NextFunction): void =>
    next(new MethodNotAllowedError('route.methodNotAllowed', { method: req.method }, { headers: { Allow: allow } }));
}
