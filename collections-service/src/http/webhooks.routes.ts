/** `/api/v1/workspaces/:id/webhooks`: a workspace's signed webhook endpoints and their delivery logs. */
import { Router } from 'express';
import { accountOf, jsonBody, methodNotAllowed, paginationOf, validate } from '@skills/common';
import type { WebhookService } from '../webhooks/webhook.service';
import { deliveriesQuerySchema, newWebhookSchema, webhookPatchSchema } from './webhook.schemas';

export function webhooksRoutes(service: WebhookService): Router {
  const router = Router();
  const base = '/api/v1/workspaces/:id/webhooks';

  router
    .route(base)
    .get(async (req, res) => {
      res.json({ data: { webhooks: await service.list(accountOf(res).accountId, req.params.id) } });
    })
    .post(jsonBody(), async (req, res) => {
      const body = validate(newWebhookSchema, req.body ?? {});
      res.status(201).json({ data: await service.create(accountOf(res).accountId, req.params.id, body) });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route(`${base}/:webhookId`)
    .get(async (req, res) => {
      res.json({ data: { webhook: await service.get(accountOf(res).accountId, req.params.id, req.params.webhookId) } });
    })
    .patch(jsonBody(), async (req, res) => {
      const patch = validate(webhookPatchSchema, req.body ?? {});
      res.json({
        data: { webhook: await service.update(accountOf(res).accountId, req.params.id, req.params.webhookId, patch) },
      });
    })
    .delete(async (req, res) => {
      await service.delete(accountOf(res).accountId, req.params.id, req.params.webhookId);
      res.json({ data: { deleted: true } });
    })
    .all(methodNotAllowed(['GET', 'PATCH', 'DELETE']));

  router
    .route(`${base}/:webhookId/deliveries`)
    .get(async (req, res) => {
      const page = validate(deliveriesQuerySchema, req.query);
      const { deliveries, total } = await service.deliveries(
        accountOf(res).accountId,
        req.params.id,
        req.params.webhookId,
        page,
      );
      res.json({ data: { deliveries, pagination: paginationOf(page, total) } });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route(`${base}/:webhookId/test`)
    .post(async (req, res) => {
      res.status(202).json({ data: await service.test(accountOf(res).accountId, req.params.id, req.params.webhookId) });
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
