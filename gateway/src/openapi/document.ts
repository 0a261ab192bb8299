/**
 * The OpenAPI 3.1 document of the whole public and admin surface, assembled
 * from one file per area. It is served at GET /api/v1/openapi.json, rendered
 * at GET /docs, linted by redocly in the tests, and used by
 * `assertMatchesOpenApi` to check real responses against it.
 */
import { headers, parameters, responses } from './components';
import { adminSchemas } from './schemas-admin';
import { publicSchemas } from './schemas-public';
import { adminPaths } from './paths-admin';
import { operationalPaths } from './paths-operational';
import { changesPaths } from './paths-changes';
import { publicPaths } from './paths-public';
import { workspacePaths } from './paths-workspaces';
import type { OpenApiDocument } from './openapi-types';

const DESCRIPTION = `
Search a catalog of skills and plugins, keep personal collections and share
collections inside team workspaces.

**Authentication.** Every \`/api/v1\` operation needs \`Authorization: Bearer <API key>\`
(keys look like \`sk_live_\` + 32 characters); the account's plan must include API
access (\`pro\` or \`team\`). The admin surface \`/admin/v1\` takes the operator's admin token instead.

**Envelope.** Success: \`{ "data": … }\`. Error: \`{ "error": "<message>" }\` with an
\`X-Request-Id\` header. Messages are in English, or in French when \`Accept-Language\` prefers \`fr\`.

**Rate limits.** Each API key has a budget per minute set by its plan (\`pro\` 600, \`team\` 1,200 by default;
the operator may change them). Every answer counted against the key carries \`RateLimit-Limit\`,
\`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds); over the budget → 429 with \`Retry-After\`.

**Caching.** Public GETs carry a strong \`ETag\`; send it in \`If-None-Match\` (lists and \`W/\` tags accepted)
to get 304 without a body. Search answers carry \`Cache-Control: private, max-age=5\` (a write can stay
hidden from a client cache for at most 5 s); collection reads \`private, no-cache\` (revalidate each time).

**Retries.** The two creates accept \`Idempotency-Key\` (1–255 visible ASCII characters): the same key with the
same body within 24 h replays the first response with \`Idempotent-Replayed: true\`; with another body → 409.
A duplicate sent while the first is still running waits for it, then gets the replay.
`.trim();

export const openApiDocument: OpenApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Skills Catalog API',
    version: '1.0.0',
    description: DESCRIPTION,
    license: { name: 'Proprietary', url: 'https://example.com/skills-catalog/license' },
  },
  servers: [{ url: '/', description: 'This gateway' }],
  tags: [
    { name: 'Catalog', description: 'Search the active public skills and plugins.' },
    { name: 'Personal collections', description: 'Collections owned by the holder of the API key.' },
    { name: 'Team collections', description: 'Collections shared inside a team workspace.' },
    { name: 'Admin', description: 'Operator surface: accounts, keys, catalog content, workspaces, reindex.' },
    { name: 'Operations', description: 'Health, metrics and documentation; no credentials.' },
  ],
  security: [{ apiKey: [] }],
  paths: { ...publicPaths, ...changesPaths, ...workspacePaths, ...adminPaths, ...operationalPaths },
  components: {
    securitySchemes: {
      apiKey: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'sk_live_ + 32 base62 characters',
        description: 'An API key of an account whose plan includes API access.',
      },
      adminBearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque admin token',
        description: 'The operator\'s admin token (ADMIN_TOKEN), for /admin/v1 only.',
      },
    },
    schemas: { ...publicSchemas, ...adminSchemas },
    parameters,
    headers,
    responses,
  },
};
