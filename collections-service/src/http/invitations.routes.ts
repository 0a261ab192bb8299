/**
 * Invitations: `/api/v1/workspaces/:id/invitations[/:invitationId]` for the
 * workspace's owners and admins, and `/api/v1/invitations/:invitationId[/accept]`
 * for the person invited. The gateway holds each link's secret and calls the
 * last two only once the link resolved to the invitation id (they are not
 * in its table of proxied routes).
 */
import { Router } from 'express';
import { accountOf, jsonBody, methodNotAllowed, validate } from '@skills/common';
import type { InvitationService } from '../domain/invitation.service';
import { invitationPreviewView, invitationView, workspaceView } from './views';
import { invitationSchema } from './workspace.schemas';

export function invitationsRoutes(service: InvitationService): Router {
  const router = Router();

  router
    .route('/api/v1/workspaces/:id/invitations')
    .get(async (req, res) => {
      const invitations = await service.listPending(accountOf(res).accountId, req.params.id);
      res.json({ data: { invitations: invitations.map(invitationView) } });
    })
    .post(jsonBody(), async (req, res) => {
      const input = validate(invitationSchema, req.body ?? {});
      const invitation = await service.create(accountOf(res).accountId, req.params.id, input);
      res.status(201).json({ data: { invitation: invitationView(invitation) } });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/v1/workspaces/:id/invitations/:invitationId')
    .delete(async (req, res) => {
      await service.revoke(accountOf(res).accountId, req.params.id, req.params.invitationId);
      res.json({ data: { revoked: true } });
    })
    .all(methodNotAllowed(['DELETE']));

  router
    .route('/api/v1/invitations/:invitationId')
    // Any principal the gateway signed: a signed-in person reading the terms, or the gateway itself (admin)
    // asking at sign-up whether the link it holds still names a pending invitation.
    .get(async (req, res) => {
      res.json({ data: { invitation: invitationPreviewView(await service.preview(req.params.invitationId)) } });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/api/v1/invitations/:invitationId/accept')
    .post(async (req, res) => {
      const workspace = await service.accept(accountOf(res).accountId, req.params.invitationId);
      res.json({ data: { workspace: workspaceView(workspace) } });
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
