/** `GET /api/v1/skills/changes`: the catalog's changes, for clients that keep a copy of it. */
import { Router } from 'express';
import { accountOf, methodNotAllowed, validate } from '@skills/common';
import { FEED_START, decodeCursor, encodeCursor, type SkillChangesService } from '../domain/skill-changes.service';
import { skillChangeView } from './views';
import { changesQuery } from './skill-changes.schemas';

export function skillChangesRoutes(service: SkillChangesService): Router {
  const router = Router();
  router
    .route('/api/v1/skills/changes')
    .get(async (req, res) => {
      accountOf(res);
      const query = validate(changesQuery, req.query);
      const page = await service.after(query.since === undefined ? FEED_START : decodeCursor(query.since), query.limit);
      res.json({
        data: {
          changes: page.items.map((item) => skillChangeView(item, page.releases.get(item.id))),
          nextCursor: encodeCursor(page.next),
          hasMore: page.hasMore,
        },
      });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
