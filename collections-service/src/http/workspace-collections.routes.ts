/** `/api/v1/workspaces/:id/collections`: shared collections of a team workspace. */
import { Router, type Response } from 'express';
import { accountOf, contextOf, jsonBody, methodNotAllowed, paginationOf, validate } from '@skills/common';
import type { TeamCollectionService } from '../domain/team-collection.service';
import type { CollectionWithEntries } from '../domain/model';
import { createCollectionSchema, listQuerySchema, teamPatchSchema } from './collection.schemas';
import { ifMatchOf, sendCollection } from './conditional-write';
import { idempotencyRequestOf, sendOutcome } from './idempotency-key';
import { teamCollectionView } from './views';

export function workspaceCollectionsRoutes(service: TeamCollectionService): Router {
  const router = Router();
  // entries' compliance messages are in the request's language (so is the ETag computed over them)
  const viewOf = (res: Response) => {
    const { lang } = contextOf(res);
    return (c: CollectionWithEntries) => teamCollectionView(c, lang);
  };

  router
    .route('/api/v1/workspaces/:id/collections')
    .get(async (req, res) => {
      const page = validate(listQuerySchema, req.query);
      const { collections, total } = await service.list(accountOf(res).accountId, req.params.id, page);
      res.json({ data: { collections: collections.map(viewOf(res)), pagination: paginationOf(page, total) } });
    })
    .post(jsonBody(), async (req, res) => {
      const { accountId } = accountOf(res);
      const body = validate(createCollectionSchema, req.body ?? {});
      const render = (collection: CollectionWithEntries) => ({
        status: 201,
        body: { data: { collection: viewOf(res)(collection) } },
      });
      const request = idempotencyRequestOf(req, accountId);
      if (request) {
        sendOutcome(res, await service.createOnce(accountId, req.params.id, body, { request, render }));
        return;
      }
      const { status, body: answer } = render(await service.create(accountId, req.params.id, body));
      res.status(status).json(answer);
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/v1/workspaces/:id/collections/:collectionId')
    .get(async (req, res) => {
      const collection = await service.get(accountOf(res).accountId, req.params.id, req.params.collectionId);
      sendCollection(res, viewOf(res)(collection));
    })
    .patch(jsonBody(), async (req, res) => {
      const { accountId } = accountOf(res);
      const patch = validate(teamPatchSchema, req.body ?? {});
      const precondition = ifMatchOf(req, viewOf(res));
      const collection = await service.update(accountId, req.params.id, req.params.collectionId, patch, precondition);
      sendCollection(res, viewOf(res)(collection));
    })
    .delete(async (req, res) => {
      const precondition = ifMatchOf(req, viewOf(res));
      await service.delete(accountOf(res).accountId, req.params.id, req.params.collectionId, precondition);
      res.json({ data: { deleted: true } });
    })
    .all(methodNotAllowed(['GET', 'PATCH', 'DELETE']));

  return router;
}
