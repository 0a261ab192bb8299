/** `/admin/v1/skills/{slug}/versions...` and `/admin/v1/publishers`: operators' release, verdict and publisher writes (docs/trust.md). */
import { Router } from 'express';
import { jsonBody, methodNotAllowed, paginationOf, validate } from '@skills/common';
import type { PublisherService } from '../domain/publisher.service';
import type { ReleaseService } from '../domain/release.service';
import type { VerdictService } from '../domain/verdict.service';
import {
  overrideSchema,
  publishSchema,
  publisherNameSchema,
  publishersQuerySchema,
  putPublisherSchema,
  yankSchema,
} from './release.schemas';
import { publisherView, releaseDetailView } from './views';

export interface AdminReleasesRoutesDeps {
  releases: ReleaseService;
  verdicts: VerdictService;
  publishers: PublisherService;
}

/** Express's path types read `:version\\:yank` as one parameter name; the router itself stops the name at the escaped colon. */
function releasePath(params: object): { slug: string; version: string } {
  return params as { slug: string; version: string };
}

export function adminReleasesRoutes({ releases, verdicts, publishers }: AdminReleasesRoutesDeps): Router {
  const router = Router();

  router
    .route('/admin/v1/skills/:slug/versions')
    .post(jsonBody(), async (req, res) => {
      const input = validate(publishSchema, req.body ?? {});
      const { detail, created } = await releases.publish(req.params.slug, input);
      res.status(created ? 201 : 200).json({ data: { release: releaseDetailView(detail) } });
    })
    .all(methodNotAllowed(['POST']));

  // "\\:" — the colon is literal here, not a route parameter.
  router
    .route('/admin/v1/skills/:slug/versions/:version\\:yank')
    .post(jsonBody(), async (req, res) => {
      const { slug, version } = releasePath(req.params);
      const { reason } = validate(yankSchema, req.body ?? {});
      res.json({ data: { release: releaseDetailView(await releases.yank(slug, version, reason)) } });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/admin/v1/skills/:slug/versions/:version\\:unyank')
    .post(jsonBody(), async (req, res) => {
      const { slug, version } = releasePath(req.params);
      res.json({ data: { release: releaseDetailView(await releases.unyank(slug, version)) } });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/admin/v1/skills/:slug/versions/:version/override')
    .put(jsonBody(), async (req, res) => {
      const { verdict, note } = validate(overrideSchema, req.body ?? {});
      res.json({
        data: {
          release: releaseDetailView(await verdicts.override(req.params.slug, req.params.version, verdict, note)),
        },
      });
    })
    .delete(async (req, res) => {
      res.json({
        data: { release: releaseDetailView(await verdicts.clearOverride(req.params.slug, req.params.version)) },
      });
    })
    .all(methodNotAllowed(['PUT', 'DELETE']));

  router
    .route('/admin/v1/publishers')
    .get(async (req, res) => {
      const { verified, ...page } = validate(publishersQuerySchema, req.query);
      const found = await publishers.list(verified, page);
      res.json({
        data: { publishers: found.publishers.map(publisherView), pagination: paginationOf(page, found.total) },
      });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/admin/v1/publishers/:name')
    .put(jsonBody(), async (req, res) => {
      const name = validate(publisherNameSchema, req.params.name);
      const { verified, note } = validate(putPublisherSchema, req.body ?? {});
      res.json({ data: { publisher: publisherView(await publishers.put(name, verified, note || null)) } });
    })
    .all(methodNotAllowed(['PUT']));

  return router;
}
