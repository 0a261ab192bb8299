/** `/api/v1/me/private-skills`: the caller's private skills, to list and to make new ones. */
import { Router } from 'express';
import { accountOf, jsonBody, methodNotAllowed, paginationOf, validate } from '@skills/common';
import type { PrivateSkillService } from '../domain/private-skill.service';
import { privateSkillSchema } from './admin.schemas';
import { listQuerySchema } from './collection.schemas';
import { privateSkillView } from './views';

export function privateSkillsRoutes(service: PrivateSkillService): Router {
  const router = Router();
  router
    .route('/api/v1/me/private-skills')
    .get(async (req, res) => {
      const page = validate(listQuerySchema, req.query);
      const { skills, total } = await service.list(accountOf(res).accountId, page);
      res.json({ data: { skills: skills.map(privateSkillView), pagination: paginationOf(page, total) } });
    })
    .post(jsonBody(), async (req, res) => {
      const body = validate(privateSkillSchema, req.body ?? {});
      const skill = await service.create(accountOf(res).accountId, body);
      res.status(201).json({ data: { skill: privateSkillView(skill) } });
    })
    .all(methodNotAllowed(['GET', 'POST']));
  return router;
}
