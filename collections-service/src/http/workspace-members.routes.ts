/**
 * `DELETE /api/v1/workspaces/:id/members/:accountId`: owners and admins
 * remove members; anyone may leave (`me` stands for the caller, whose
 * account id a key holder may not know).
 */
import { Router } from 'express';
import { accountOf, methodNotAllowed } from '@skills/common';
import type { WorkspaceMembersService } from '../domain/workspace-members.service';

export function workspaceMembersRoutes(service: WorkspaceMembersService): Router {
  const router = Router();
  router
    .route('/api/v1/workspaces/:id/members/:accountId')
    .delete(async (req, res) => {
      const { accountId } = accountOf(res);
      const target = req.params.accountId === 'me' ? accountId : req.params.accountId;
      await service.removeMember(accountId, req.params.id, target);
      res.json({ data: { removed: true } });
    })
    .all(methodNotAllowed(['DELETE']));
  return router;
}
