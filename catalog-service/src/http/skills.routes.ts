import { Router, type Request, type Response } from 'express';
import { accountOf, methodNotAllowed, principalOf, validate } from '@skills/common';
import { searchUnderPolicy } from '../domain/search-policy';
import { skillsPageBody, toSearchQuery, type TrustDefaults } from '../domain/search-request';
import type { SearchEngine } from '../engines/search-engine';
import { searchSkillsQuery } from './skills.schemas';

/**
 * `GET /api/v1/skills`: the public catalog listing (read only), safe by
 * default as `trust` says (docs/trust.md), and within the workspace policy
 * the gateway signed into the principal, if any (docs/governance.md).
 */
export function skillsRoutes(engine: SearchEngine, trust: TrustDefaults): Router {
  const router = Router();
  router
    .route('/api/v1/skills')
    .get(async (req: Request, res: Response) => {
      accountOf(res);
      const principal = principalOf(res);
      const query = toSearchQuery(validate(searchSkillsQuery, req.query), trust);
      const result = await searchUnderPolicy(
        engine,
        query,
        principal.kind === 'account' ? principal.searchPolicy : undefined,
      );
      res.type('application/json').send(skillsPageBody(query, result));
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
