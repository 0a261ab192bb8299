/**
 * `GET /internal/v1/items`: every catalog item state, page by page (keyset on
 * the id), for catalog-service's reindex. Its credential is the items reader
 * token both services hold (ITEMS_READER_TOKEN), which opens this route and
 * nothing else: no principal, no admin right, no write, no collection. The
 * gateway routes nothing under `/internal`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { AuthenticationError, methodNotAllowed, validate } from '@skills/common';
import type { CatalogAdminService } from '../domain/catalog-admin.service';
import { itemsQuerySchema } from './admin.schemas';
import { itemStateView } from './views';

export const ITEMS_READER_PATH = '/internal/v1/items';

const BEARER = /^Bearer +(\S+)$/i;

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** `Authorization: Bearer <token>`, compared as SHA-256 digests in constant time (no length or prefix leaks). */
function requireReaderToken(token: string) {
  const expected = sha256(token);
  return (req: Request, _res: Response, next: NextFunction): void => {
    const given = BEARER.exec(req.get('authorization') ?? '')?.[1];
    next(
      given !== undefined && timingSafeEqual(sha256(given), expected)
        ? undefined
        : new AuthenticationError('auth.invalidReaderToken'),
    );
  };
}

export function itemsReaderRoutes(service: CatalogAdminService, token: string): Router {
  const router = Router();
  router
    .route(ITEMS_READER_PATH)
    .get(requireReaderToken(token), async (req, res) => {
      const query = validate(itemsQuerySchema, req.query);
      const page = await service.listItems(query.after ?? null, query.limit);
      res.json({ data: { items: page.items.map(itemStateView), next: page.next } });
    })
    .all(methodNotAllowed(['GET']));
  return router;
}
