/**
 * Admission's refusal before anything else of the request runs. A proxied
 * request whose class has every place taken and a full line would be
 * refused by admission anyway (admission.ts), after its credential was
 * checked, its rate limit counted and its body read. Under a flood those
 * refusals are most of the work: the cheaper each one, the sooner the
 * requests queued unread behind them are reached, admitted ones included.
 * So a full class is refused here, with the same 503 and Retry-After,
 * before authentication (a bad key then meets 503, not 401: the client
 * comes back later either way). A search the answer cache holds, or is
 * fetching already, needs no place and is let through.
 */
import type { NextFunction, Request, Response } from 'express';
import { routeClassOf, type AdmissionGate } from './admission';
import type { AnswerCache } from '../proxy/answer-cache';
import { matchRoute } from '../proxy/route-table';

export function shedWhileFull(admission: AdmissionGate, answerCache?: AnswerCache) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    // Nearly always nothing is full: then the route is matched once, by the proxy, not here as well.
    if (!admission.anyFull()) return next();
    const match = matchRoute(req.method, req.path);
    if (match.kind !== 'found') return next();
    const routeClass = routeClassOf(match.route.upstream, req.method);
    if (!admission.full(routeClass)) return next();
    if (match.route.sharedAnswer && req.method === 'GET' && answerCache?.enabled && answerCache.has(req.originalUrl))
      return next();
    next(admission.refusal(routeClass));
  };
}
