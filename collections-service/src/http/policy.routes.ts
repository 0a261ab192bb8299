/**
 * `/api/v1/workspaces/:id/policy` (docs/governance.md "Policy") and the
 * compiled form the gateway fetches for a member's searches.
 */
import { Router } from 'express';
import { accountOf, jsonBody, methodNotAllowed, validate } from '@skills/common';
import type { PolicyRecord } from '../domain/policy';
import type { PolicyService } from '../domain/policy.service';
import { policySchema } from './policy.schemas';

function policyView(r: PolicyRecord) {
  return { policy: r.policy, updatedAt: r.updatedAt, updatedBy: r.updatedBy };
}

export function policyRoutes(service: PolicyService): Router {
  const router = Router();

  router
    .route('/api/v1/workspaces/:id/policy')
    .get(async (req, res) => {
      res.json({ data: policyView(await service.get(accountOf(res).accountId, req.params.id)) });
    })
    .put(jsonBody(), async (req, res) => {
      const policy = validate(policySchema, req.body ?? {});
      res.json({ data: policyView(await service.put(accountOf(res).accountId, req.params.id, policy)) });
    })
    .all(methodNotAllowed(['GET', 'PUT']));

  router
    .route('/internal/v1/workspaces/:id/search-policy')
    .get(async (req, res) => {
      res.json({ data: { searchPolicy: await service.searchPolicy(accountOf(res).accountId, req.params.id) } });
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
