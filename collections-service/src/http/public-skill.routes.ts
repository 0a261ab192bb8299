/** `GET /api/v1/skills/:slug`: one active public item, every field (mounted after `/api/v1/skills/changes`). */
import { Router } from 'express';
import { accountOf, methodNotAllowed } from '@skills/common';
import type { PublicSkillService } from '../domain/public-skill.service';
import { catalogItemView } from './views';

export function publicSkillRoutes(service: PublicSkillService): Router {
  const router = Router();
  router
    .route('/api/v1/skills/:slug')
    .get(async (req, res) => {
      accountOf(res);
      res.json({ data: { skill: catalogItemView(await service.get(req.params.slug)) } });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
