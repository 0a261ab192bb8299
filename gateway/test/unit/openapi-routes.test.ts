/**
 * No drift between the gateway and its document: every route the gateway
 * serves (its own express routes plus the proxied route table) is an
 * operation of the OpenAPI document, and every operation is served.
 */
import type { Express } from 'express';
import { createGatewayApp, type GatewayDeps } from '../../src/app';
import { Readiness } from '../../src/http/health.routes';
import { ROUTES } from '../../src/http/proxy/route-table';
import { openApiDocument } from '../../src/openapi/document';
import { DOCS_ASSETS as SWAGGER_UI_FILES } from '../../src/openapi/openapi.routes';
import { HTTP_METHODS } from '../../src/openapi/openapi-types';
import { silentLogger } from '@skills/common/testing';

/** Files of the docs page itself, not API operations. */
const DOCS_ASSETS = ['GET /docs/init.js', ...Object.keys(SWAGGER_UI_FILES).map((file) => `GET /docs/assets/${file}`)];

/** `/a/:id/b/*` and `/a/{id}/b/{x}` both become `/a/{}/b/{}`; `/r/:id:resolve` and `/r/{id}:resolve` become `/r/{}:resolve`. */
function normalise(method: string, path: string): string {
  const shape = path
    .split('/')
    .map((s) => s.replace(/^:\w+(?=:|$)/, '{}').replace(/^\{\w+\}/, '{}'))
    .map((s) => (s === '*' ? '{}' : s))
    .join('/');
  return `${method.toUpperCase()} ${shape}`;
}

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** The routes declared with express (`router.route(...).get(...)`), walking nested routers. */
function expressRoutes(app: Express): string[] {
  const out: string[] = [];
  const walk = (stack: Layer[]): void => {
    for (const layer of stack) {
      if (layer.route) {
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (on && method !== '_all') out.push(normalise(method, layer.route.path));
        }
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  // Express 5 keeps the root router on app.router; its layers are not part of the public types.
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return out;
}

function gatewayRoutes(): string[] {
  // Building the app touches no dependency; the routes are declared at construction.
  const deps = {
    logger: silentLogger('gateway-test'),
    adminToken: 'x'.repeat(32),
    readiness: new Readiness({ checks: [] }),
    profile: {},
    audit: {},
  } as unknown as GatewayDeps;
  const served = [...expressRoutes(createGatewayApp(deps)), ...ROUTES.map((r) => normalise(r.method, r.pattern))];
  return [...new Set(served)].filter((r) => !DOCS_ASSETS.includes(r)).sort();
}

function documentedOperations(): string[] {
  return Object.entries(openApiDocument.paths)
    .flatMap(([path, item]) => HTTP_METHODS.filter((m) => item[m]).map((m) => normalise(m, path)))
    .sort();
}

describe('gateway routes and the OpenAPI document', () => {
  it('documents every route the gateway serves', () => {
    const documented = new Set(documentedOperations());
    expect(gatewayRoutes().filter((r) => !documented.has(r))).toEqual([]);
  });

  it('serves every documented operation', () => {
    const served = new Set(gatewayRoutes());
    expect(documentedOperations().filter((r) => !served.has(r))).toEqual([]);
  });
});
