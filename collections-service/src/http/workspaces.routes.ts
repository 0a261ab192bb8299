/**
 * `/api/v1/workspaces` and `/api/v1/workspaces/:id[/members]`: create a
 * workspace (the caller owns it), list the caller's workspaces with their
 * role, read one, and list its members.
 */
import { Router } from 'express';
import { accountOf, jsonBody, methodNotAllowed, paginationOf, validate } from '@skills/common';
import type { WorkspaceService } from '../domain/workspace.service';
import { listQuerySchema } from './collection.schemas';
import { memberView, workspaceView } from './views';
import { newWorkspaceSchema } from './workspace.schemas';

export function workspacesRoutes(service: WorkspaceService): Router {
  const router = Router();

  router
    .route('/api/v1/workspaces')
    .get(async (req, res) => {
      const page = validate(listQuerySchema, req.query);
      const { workspaces, total } = await service.listMine(accountOf(res).accountId, page);
      res.json({ data: { workspaces: workspaces.map(workspaceView), pagination: paginationOf(page, total) } });
    })
    .post(jsonBody(), async (req, res) => {
      const { name } = validate(newWorkspaceSchema, req.body ?? {});
      const workspace = await service.create(accountOf(res).accountId, name);
      res.status(201).json({ data: { workspace: workspaceView(workspace) } });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/v1/workspaces/:id')
    .get(async (req, res) => {
      const workspace = await service.get(accountOf(res).accountId, req.params.id);
      res.json({ data: { workspace: workspaceView(workspace) } });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/api/v1/workspaces/:id/members')
    .get(async (req, res) => {
      const page = validate(listQuerySchema, req.query);
      const { members, total } = await service.listMembers(accountOf(res).accountId, req.params.id, page);
      res.json({ data: { members: members.map(memberView), pagination: paginationOf(page, total) } });
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
