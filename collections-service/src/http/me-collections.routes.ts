/** `/api/v1/me/collections`: the caller's personal collections. */
import { Router } from 'express';
import { accountOf, jsonBody, methodNotAllowed, paginationOf, validate } from '@skills/common';
import type { PersonalCollectionService } from '../domain/personal-collection.service';
import type { CollectionWithEntries } from '../domain/model';
import { createCollectionSchema, listQuerySchema, personalPatchSchema } from './collection.schemas';
import { ifMatchOf, sendCollection } from './conditional-write';
import { idempotencyRequestOf, sendOutcome } from './idempotency-key';
import { personalCollectionView } from './views';

export function meCollectionsRoutes(service: PersonalCollectionService): Router {
  const router = Router();

  router
    .route('/api/v1/me/collections')
    .get(async (req, res) => {
      const { accountId } = accountOf(res);
      const page = validate(listQuerySchema, req.query);
      const { collections, total } = await service.list(accountId, page);
      res.json({
        data: { collections: collections.map(personalCollectionView), pagination: paginationOf(page, total) },
      });
    })
    .post(jsonBody(), async (req, res) => {
      const { accountId } = accountOf(res);
      const body = validate(createCollectionSchema, req.body ?? {});
      const render = (collection: CollectionWithEntries) => ({
        status: 201,
        body: { data: { collection: personalCollectionView(collection) } },
      });
      const request = idempotencyRequestOf(req, accountId);
      if (request) {
        sendOutcome(res, await service.createOnce(accountId, body, { request, render }));
        return;
      }
      const { status, body: answer } = render(await service.create(accountId, body));
      res.status(status).json(answer);
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/v1/me/collections/:id')
    .get(async (req, res) => {
      const collection = await service.get(accountOf(res).accountId, req.params.id);
      sendCollection(res, personalCollectionView(collection));
    })
    .patch(jsonBody(), async (req, res) => {
      const { accountId } = accountOf(res);
      const patch = validate(personalPatchSchema, req.body ?? {});
      const collection = await service.update(accountId, req.params.id, patch, ifMatchOf(req, personalCollectionView));
      sendCollection(res, personalCollectionView(collection));
    })
    .delete(async (req, res) => {
      await service.delete(accountOf(res).accountId, req.params.id, ifMatchOf(req, personalCollectionView));
      res.json({ data: { deleted: true } });
    })
    .all(methodNotAllowed(['GET', 'PATCH', 'DELETE']));

  return router;
}
