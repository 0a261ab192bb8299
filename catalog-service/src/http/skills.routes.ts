import { Router, type Request, type Response } from 'express';
import { accountOf, methodNotAllowed, validate } from '@skills/common';
import { skillsPageBody, toSearchQuery, type TrustDefaults } from '../domain/search-request';
import type { SearchEngine } from '../engines/search-engine';
import { searchSkillsQuery } from './skills.schema';

/** `GET /api/v1/skills`: the public catalog listing (read only), safe by default as `trust` says (docs/trust.md). */
export function skillsRoutes(engine: SearchEngine, trust: TrustDefaults): Router {
  const router = Router();
  router
    .route('/api/v1/skills')
    .get(async (req: Request, res: Response) => {
      accountOf(res);
      const query = toSearchQuery(validate(searchSkillsQuery, req.query), trust);
      const result = await engine.search(query);
      res.type('application/json').send(skillsPageBody(query, result));
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
