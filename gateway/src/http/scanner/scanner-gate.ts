/**
 * A scanner credential records verdicts and does nothing else (docs/trust.md).
 * A request that offers one (`Bearer sks_…`) anywhere under /api or /admin but
 * on a route whose `auth` is `scanner` is authenticated first (a bad token is
 * a 401 counted like a bad key) and then refused with 403, before any router
 * sees it: proxied routes, the gateway's own routes and the admin API alike,
 * so no route added later can forget the rule.
 */
import type { NextFunction, Request, Response } from 'express';
import { NotAllowedError } from '@skills/common';
import { offersScannerToken } from '../../domain/scanner/scanner';
import type { AuthenticateScanner } from '../keys/caller-auth';
import { matchRoute } from '../proxy/route-table';

export function scannerGate(authenticateScanner: AuthenticateScanner) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (!offersScannerToken(req.get('authorization'))) return next();
    if (!req.path.startsWith('/api/') && !req.path.startsWith('/admin/')) return next();
    const match = matchRoute(req.method, req.path);
    if (match.kind === 'found' && match.route.auth === 'scanner') return next();
    await authenticateScanner(req, res);
    throw new NotAllowedError('auth.scannerVerdictsOnly');
  };
}
