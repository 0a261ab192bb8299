import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { negotiateLanguage, type Language } from '../i18n';

/** Header carrying the correlation id across gateway → services. */
const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface RequestContext {
  requestId: string;
  lang: Language;
}

/** Request id and language of the current request, set by `requestContext()`. */
export function contextOf(res: Response): RequestContext {
  return res.locals as unknown as RequestContext;
}

/**
 * Keeps a well-formed incoming `X-Request-Id` (so one id follows a request
 * through every hop) or makes one, echoes it on the response, and negotiates
 * the language of error messages.
 */
export function requestContext() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.get(REQUEST_ID_HEADER);
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.locals.lang = negotiateLanguage(req.get('accept-language'));
    res.setHeader('X-Request-Id', requestId);
    next();
  };
}
