/** `/admin/v1/skills...` and `/admin/v1/items`: catalog items, for operators and catalog-service. */
import { Router, type Request, type Response } from 'express';
import {
  AuthenticationError,
  EMPTY_BODY,
  InputError,
  PayloadTooLargeError,
  PrincipalVerificationError,
  STREAMED_BODY,
  UnsupportedMediaTypeError,
  contextOf,
  hasBody,
  jsonBody,
  signedBodyOf,
  methodNotAllowed,
  translate,
  validate,
  type Language,
} from '@skills/common';
import type { CatalogAdminService } from '../domain/catalog-admin.service';
import type { ImportLine } from '../domain/model';
import { importLineSchema, itemsQuerySchema, privateSkillSchema, putSkillSchema, slugSchema } from './admin.schemas';
import { discardBody } from './discard-body';
import { ndjsonLines, type NumberedLine } from './ndjson-lines';
import { itemStateView, privateSkillView, publicSkillView } from './views';

export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
const IMPORT_LIMIT_LABEL = '50mb';
const NDJSON = 'application/x-ndjson';

/** One import line → a validated item, or 400 naming the line in the caller's language. */
function parseLine(line: NumberedLine, lang: Language): ImportLine {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InputError('import.badLine', { line: line.number, detail: translate('import.lineNotJson', lang) });
  }
  try {
    return { ...validate(importLineSchema, parsed), line: line.number };
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    const detail = translate(err.messageKey, lang, err.params);
    throw new InputError('import.badLine', { line: line.number, detail }, { cause: err });
  }
}

/**
 * The gateway streams the import without holding it, so its principal says
 * "streamed" instead of carrying a digest (docs/security.md); a header signed
 * for any other body cannot carry an import.
 */
function checkStreamedSignature(req: Request, res: Response): void {
  const signed = signedBodyOf(res);
  if (signed === STREAMED_BODY || (signed === EMPTY_BODY && !hasBody(req))) return;
  throw new AuthenticationError('auth.invalidPrincipal', {}, { cause: new PrincipalVerificationError('body') });
}

/** Reads and validates the whole body before anything is written: all or nothing. */
async function readImport(req: Request, res: Response): Promise<ImportLine[]> {
  const lang = contextOf(res).lang;
  const inputs: ImportLine[] = [];
  try {
    checkStreamedSignature(req, res);
    if (!req.is(NDJSON)) throw new UnsupportedMediaTypeError('body.unsupportedType', { type: NDJSON });
    if (Number(req.get('content-length') ?? 0) > IMPORT_MAX_BYTES) {
      throw new PayloadTooLargeError('body.tooLarge', { limit: IMPORT_LIMIT_LABEL });
    }
    // destroyOnReturn: false keeps the socket alive when we stop early, so the answer can still be sent.
    for await (const line of ndjsonLines(
      req.iterator({ destroyOnReturn: false }),
      IMPORT_MAX_BYTES,
      IMPORT_LIMIT_LABEL,
    )) {
      if (line.text.trim() === '') continue;
      inputs.push(parseLine(line, lang));
    }
  } catch (err) {
    await discardBody(req);
    throw err;
  }
  return inputs;
}

export function adminSkillsRoutes(service: CatalogAdminService): Router {
  const router = Router();

  // "\\:" — the colon is literal here, not a route parameter.
  router
    .route('/admin/v1/skills\\:import')
    .post(async (req, res) => {
      const inputs = await readImport(req, res);
      const imported = await service.importSkills(inputs);
      res.json({ data: { imported } });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/admin/v1/skills/:slug')
    .put(jsonBody(), async (req, res) => {
      const slug = validate(slugSchema, req.params.slug);
      const fields = validate(putSkillSchema, req.body ?? {});
      const { item, created } = await service.putSkill({ ...fields, slug });
      res.status(created ? 201 : 200).json({ data: { skill: publicSkillView(item) } });
    })
    .delete(async (req, res) => {
      await service.deleteSkill(req.params.slug);
      res.json({ data: { deleted: true } });
    })
    .all(methodNotAllowed(['PUT', 'DELETE']));

  router
    .route('/admin/v1/accounts/:id/private-skills')
    .post(jsonBody(), async (req, res) => {
      const body = validate(privateSkillSchema, req.body ?? {});
      const item = await service.createPrivateSkill(req.params.id, body.name, body.description);
      res.status(201).json({ data: { skill: privateSkillView(item) } });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/admin/v1/items')
    .get(async (req, res) => {
      const query = validate(itemsQuerySchema, req.query);
      const page = await service.listItems(query.after ?? null, query.limit);
      res.json({ data: { items: page.items.map(itemStateView), next: page.next } });
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
