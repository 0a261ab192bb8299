/**
 * The admin API the gateway answers itself: accounts, plans and API keys.
 * Mounted behind requireAdminToken.
 */
import { Router, type Request, type Response } from 'express';
import { jsonBody, methodNotAllowed, validate } from '@skills/common';
import type { AccountService } from '../../domain/accounts/account.service';
import type { ApiKeyService } from '../../domain/keys/api-key.service';
import { adminKeySchema, rollSchema } from '../keys/api-key.schemas';
import { auditContextOf } from '../audit/audit-context';
import { createAccountSchema, changePlanSchema } from './admin.schemas';

/** Behind requireAdminToken every caller here is the operator. */
const ADMIN = { kind: 'admin' } as const;

function param(req: Request, name: string): string {
  return String(req.params[name] ?? '');
}

export function adminRoutes(accounts: AccountService, keys: ApiKeyService): Router {
  const router = Router();
  const body = jsonBody();

  router
    .route('/admin/v1/accounts')
    .post(body, async (req: Request, res: Response) => {
      const input = validate(createAccountSchema, req.body ?? {});
      res.status(201).json({ data: { account: await accounts.create(input, auditContextOf(req, res, ADMIN)) } });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/admin/v1/accounts/:id')
    .get(async (req: Request, res: Response) => {
      res.json({ data: await accounts.get(param(req, 'id')) });
    })
    .patch(body, async (req: Request, res: Response) => {
      const input = validate(changePlanSchema, req.body ?? {});
      res.json({
        data: { account: await accounts.changePlan(param(req, 'id'), input.plan, auditContextOf(req, res, ADMIN)) },
      });
    })
    .all(methodNotAllowed(['GET', 'PATCH']));

  router
    .route('/admin/v1/accounts/:id/api-keys')
    .get(async (req: Request, res: Response) => {
      res.json({ data: { apiKeys: await keys.list(param(req, 'id')) } });
    })
    .post(body, async (req: Request, res: Response) => {
      const input = validate(adminKeySchema, req.body ?? {});
      const apiKey = await keys.issue(
        param(req, 'id'),
        { ...input, name: input.name ?? null },
        auditContextOf(req, res, ADMIN),
      );
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json({ data: { apiKey } });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/admin/v1/api-keys/:keyId')
    .delete(async (req: Request, res: Response) => {
      await keys.revoke(param(req, 'keyId'), auditContextOf(req, res, ADMIN));
      res.json({ data: { revoked: true } });
    })
    .all(methodNotAllowed(['DELETE']));

  router
    .route('/admin/v1/api-keys/:keyId/roll')
    .post(body, async (req: Request, res: Response) => {
      const input = validate(rollSchema, req.body ?? {});
      const rolled = await keys.roll(param(req, 'keyId'), input.graceSeconds, auditContextOf(req, res, ADMIN));
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json({ data: rolled });
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
