/**
 * `/admin/v1/scanners`: operators issue, list and revoke scanner credentials
 * (docs/trust.md). The token is in the issue's answer only (no-store) and
 * nowhere else. Mounted behind requireAdminToken.
 */
import { Router, type Request, type Response } from 'express';
import { jsonBody, methodNotAllowed, validate } from '@skills/common';
import type { ScannerService } from '../../domain/scanner/scanner.service';
import { auditContextOf } from '../audit/audit-context';
import { issueScannerSchema } from './scanner.schemas';

/** Behind requireAdminToken every caller here is the operator. */
const ADMIN = { kind: 'admin' } as const;

export function scannerRoutes(scanners: ScannerService): Router {
  const router = Router();

  router
    .route('/admin/v1/scanners')
    .get(async (_req: Request, res: Response) => {
      res.json({ data: { scanners: await scanners.list() } });
    })
    .post(jsonBody(), async (req: Request, res: Response) => {
      const { name } = validate(issueScannerSchema, req.body ?? {});
      const issued = await scanners.issue(name, auditContextOf(req, res, ADMIN));
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json({ data: issued });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/admin/v1/scanners/:id')
    .delete(async (req: Request, res: Response) => {
      res.json({
        data: { scanner: await scanners.revoke(String(req.params.id ?? ''), auditContextOf(req, res, ADMIN)) },
      });
    })
    .all(methodNotAllowed(['DELETE']));

  return router;
}
