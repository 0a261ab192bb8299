/**
 * `PUT` and `DELETE /api/v1/workspaces/:id/members/:accountId`: owners and
 * admins change roles and remove members; anyone may leave (`me` stands for
 * the caller, whose account id a key holder may not know).
 */
import { Router } from 'express';
import { accountOf, jsonBody, methodNotAllowed, validate } from '@skills/common';
import type { WorkspaceMembersService } from '../domain/workspace-members.service';
import { memberView } from './views';
import { roleSchema } from './workspace.schemas';

export function workspaceMembersRoutes(service: WorkspaceMembersService): Router {
  const router = Router();
  router
    .route('/api/v1/workspaces/:id/members/:accountId')
    .put(jsonBody(), async (req, res) => {
      const { accountId } = accountOf(res);
      const { role } = validate(roleSchema, req.body ?? {});
      const target = req.params.accountId === 'me' ? accountId : req.params.accountId;
      res.json({ data: { member: memberView(await service.setRole(accountId, req.params.id, target, role)) } });
    })
    .delete(async (req, res) => {
      const { accountId } = accountOf(res);
      const target = req.params.accountId === 'me' ? accountId : req.params.accountId;
      await service.removeMember(accountId, req.params.id, target);
      res.json({ data: { removed: true } });
    })
    .all(methodNotAllowed(['PUT', 'DELETE']));
  return router;
}
