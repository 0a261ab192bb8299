/** `/admin/v1/workspaces...`: creating workspaces, setting member roles and removing members. */
import { Router } from 'express';
import { jsonBody, methodNotAllowed, validate } from '@skills/common';
import type { WorkspaceAdminService } from '../domain/workspace-admin.service';
import type { WorkspaceMembersService } from '../domain/workspace-members.service';
import { createWorkspaceSchema, memberSchema } from './admin.schemas';

export function adminWorkspacesRoutes(service: WorkspaceAdminService, members: WorkspaceMembersService): Router {
  const router = Router();

  router
    .route('/admin/v1/workspaces')
    .post(jsonBody(), async (req, res) => {
      const body = validate(createWorkspaceSchema, req.body ?? {});
      const workspace = await service.createWorkspace(body.name, body.ownerAccountId);
      res.status(201).json({ data: { workspace } });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/admin/v1/workspaces/:id/members/:accountId')
    .put(jsonBody(), async (req, res) => {
      const { role } = validate(memberSchema, req.body ?? {});
      const member = await service.setMember({ workspaceId: req.params.id, accountId: req.params.accountId, role });
      res.json({ data: { member } });
    })
    .delete(async (req, res) => {
      await members.removeByAdmin(req.params.id, req.params.accountId);
      res.json({ data: { removed: true } });
    })
    .all(methodNotAllowed(['PUT', 'DELETE']));

  return router;
}
