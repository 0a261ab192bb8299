/**
 * `…/collections/:collectionId/pins:update` and `…/lockfile` of a team
 * collection (docs/governance.md). The colon of `pins:update` is escaped:
 * unescaped, express would read it as a route parameter.
 */
import { Router, type Request } from 'express';
import { accountOf, contextOf, jsonBody, methodNotAllowed, validate } from '@skills/common';
import type { CollectionPinsService } from '../domain/collection-pins.service';
import { teamCollectionView } from './views';
import { pinsUpdateSchema } from './collection-pins.schemas';

/** Does If-None-Match name this entity tag (weak comparison, RFC 9110 §13.1.2)? */
function noneMatchHolds(req: Request, etag: string): boolean {
  const header = req.get('if-none-match');
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export function collectionPinsRoutes(service: CollectionPinsService): Router {
  const router = Router();
  const base = '/api/v1/workspaces/:id/collections/:collectionId';

  router
    .route(`${base}/pins\\:update`)
    .post(jsonBody(), async (req, res) => {
      const body = validate(pinsUpdateSchema, req.body ?? {});
      const result = await service.updatePins(accountOf(res).accountId, req.params.id, req.params.collectionId, body);
      const { lang } = contextOf(res);
      res.json({
        data: {
          dryRun: result.dryRun,
          changes: result.changes.map((c) => ({
            slug: c.slug,
            from: c.from,
            to: { version: c.to.version, digest: c.to.digest },
          })),
          skipped: result.skipped,
          collection: teamCollectionView(result.collection, lang),
        },
      });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route(`${base}/lockfile`)
    .get(async (req, res) => {
      const lock = await service.lockfile(accountOf(res).accountId, req.params.id, req.params.collectionId);
      const etag = `"${lock.sha256}"`;
      res.setHeader('ETag', etag);
      if (noneMatchHolds(req, etag)) {
        res.status(304).end();
        return;
      }
      res.setHeader('Content-Disposition', `attachment; filename="skills-lock-${req.params.collectionId}.json"`);
      res.type('application/json').send(lock.bytes);
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
