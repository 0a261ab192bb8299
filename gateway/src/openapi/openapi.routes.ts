/**
 * GET /api/v1/openapi.json (no key: the contract is public) and the docs page
 * at GET /docs, rendered by swagger-ui-dist served from our own origin, so
 * the page works offline and loads nothing from a CDN.
 */
import path from 'node:path';
import express, { Router, type Request, type Response } from 'express';
import { methodNotAllowed } from '@skills/common';
import { openApiDocument } from './document';
import type { OpenApiDocument } from './openapi-types';

export const OPENAPI_PATH = '/api/v1/openapi.json';
export const DOCS_PATH = '/docs';
const ASSETS_PATH = `${DOCS_PATH}/assets`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Skills Catalog API</title>
  <link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${ASSETS_PATH}/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${ASSETS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

// A separate script file instead of an inline one keeps the page usable under a strict Content-Security-Policy.
const INIT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: false,
  tryItOutEnabled: false
});
`;

function swaggerUiDir(): string {
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

/** The document and its rendered page; `document` is injectable for tests. */
export function openApiRoutes(document: OpenApiDocument = openApiDocument): Router {
  const router = Router();
  const json = JSON.stringify(document);

  router
    .route(OPENAPI_PATH)
    .get((_req: Request, res: Response) => {
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.type('application/json').send(json);
    })
    .all(methodNotAllowed(['GET']));

  router
    .route(DOCS_PATH)
    .get((_req: Request, res: Response) => {
      res.type('text/html').send(PAGE);
    })
    .all(methodNotAllowed(['GET']));

  router.get(`${DOCS_PATH}/init.js`, (_req: Request, res: Response) => {
    res.type('application/javascript').send(INIT);
  });
  router.use(ASSETS_PATH, express.static(swaggerUiDir(), { index: false, maxAge: '1d', fallthrough: true }));
  return router;
}
