/**
 * GET /api/v1/openapi.json (no key: the contract is public) and the docs page
 * at GET /docs, rendered by swagger-ui-dist served from our own origin, so
 * the page works offline and loads nothing from a CDN. Of swagger-ui-dist
 * only the files the page loads are served: not its stock index.html (which
 * loads a third-party petstore document), oauth2-redirect.html or the
 * source maps.
 */
import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import { methodNotAllowed } from '@skills/common';
import { docsPageSecurity } from '../http/security-headers';
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

/** The files of swagger-ui-dist the page loads, and nothing else of that folder. */
export const DOCS_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'application/javascript',
  'favicon-32x32.png': 'image/png',
};

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

  router.use(DOCS_PATH, docsPageSecurity());
  router
    .route(DOCS_PATH)
    .get((_req: Request, res: Response) => {
      res.type('text/html').send(PAGE);
    })
    .all(methodNotAllowed(['GET']));

  router.get(`${DOCS_PATH}/init.js`, (_req: Request, res: Response) => {
    res.type('application/javascript').send(INIT);
  });
  const dir = swaggerUiDir();
  for (const [file, type] of Object.entries(DOCS_ASSETS)) {
    router.get(`${ASSETS_PATH}/${file}`, (_req: Request, res: Response, next) => {
      res.type(type).sendFile(path.join(dir, file), { maxAge: '1d' }, (err) => {
        if (err && !res.headersSent) next(err);
      });
    });
  }
  return router;
}
