/**
 * The public reads of releases and their verdicts, and the one route a
 * scanner credential opens: recording a verdict (docs/trust.md "Routes").
 */
import { Router } from 'express';
import {
  NotAllowedError,
  accountOf,
  jsonBody,
  methodNotAllowed,
  paginationOf,
  principalOf,
  validate,
} from '@skills/common';
import type { PublicSkillService } from '../domain/public-skill.service';
import type { ReleaseService } from '../domain/release.service';
import type { VerdictService } from '../domain/verdict.service';
import { pageQuerySchema, scanSchema } from './release.schemas';
import { releaseDetailView, releaseView, verdictEntryView } from './views';

export interface ReleasesRoutesDeps {
  skills: PublicSkillService;
  releases: ReleaseService;
  verdicts: VerdictService;
}

export function releasesRoutes({ skills, releases, verdicts }: ReleasesRoutesDeps): Router {
  const router = Router();

  router
    .route('/api/v1/skills/:slug/versions')
    .get(async (req, res) => {
      accountOf(res);
      const page = validate(pageQuerySchema, req.query);
      const item = await skills.get(req.params.slug);
      const found = await releases.versions(item, page);
      const versions = found.releases.map((r) => releaseView(r, item.trust.publisherVerified));
      res.json({ data: { versions, pagination: paginationOf(page, found.total) } });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/api/v1/skills/:slug/versions/:version')
    .get(async (req, res) => {
      accountOf(res);
      const item = await skills.get(req.params.slug);
      res.json({ data: { release: releaseDetailView(await releases.release(item, req.params.version)) } });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/api/v1/skills/:slug/versions/:version/verdicts')
    .get(async (req, res) => {
      accountOf(res);
      const page = validate(pageQuerySchema, req.query);
      const item = await skills.get(req.params.slug);
      await releases.release(item, req.params.version);
      const found = await verdicts.history(item, req.params.version, page);
      res.json({
        data: { verdicts: found.entries.map(verdictEntryView), pagination: paginationOf(page, found.total) },
      });
    })
    .post(
      (_req, res, next) => {
        // before the body is read: only a scanner credential records verdicts, under its own name
        next(principalOf(res).kind === 'scanner' ? undefined : new NotAllowedError('verdict.scannerOnly'));
      },
      jsonBody(),
      async (req, res) => {
        const principal = principalOf(res);
        if (principal.kind !== 'scanner') throw new NotAllowedError('verdict.scannerOnly');
        const body = validate(scanSchema, req.body ?? {});
        const detail = await verdicts.recordScan(req.params.slug, req.params.version, {
          ...body,
          scanner: principal.name,
        });
        res.status(201).json({ data: { release: releaseDetailView(detail) } });
      },
    )
    .all(methodNotAllowed(['GET', 'POST']));

  return router;
}
