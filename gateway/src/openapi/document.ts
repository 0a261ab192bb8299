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
import { profilePaths } from './paths-profile';
import { signInPaths } from './paths-sign-in';
import { oidcPaths } from './paths-oidc';
import { profileSchemas } from './schemas-profile';
import { operationalPaths } from './paths-operational';
import { changesPaths } from './paths-changes';
import { publicPaths } from './paths-public';
import { workspacePaths } from './paths-workspaces';
import { itemPaths } from './paths-items';
import { selfServicePaths } from './paths-self-service';
import { workspaceSchemas } from './schemas-workspaces';
import { trustPaths } from './paths-trust';
import { moderationPaths } from './paths-moderation';
import { trustSchemas } from './schemas-trust';
import { governancePaths } from './paths-governance';
import { governanceSchemas } from './schemas-governance';
import type { JsonSchema, OpenApiDocument, PathItem } from './openapi-types';

const DESCRIPTION = `
Search a catalog of skills and plugins, keep personal collections and share
collections inside team workspaces.

**Authentication.** Every \`/api/v1\` operation needs \`Authorization: Bearer <API key>\`
(keys look like \`sk_live_\` + 32 characters); the account's plan must include API
access (\`pro\` or \`team\`), and the key the operation's scope (\`search:read\`, \`collections:read\`,
\`collections:write\`, \`workspaces:manage\`; keys made before scopes hold all of them): a missing scope is a 403 naming it, an expired
key a 401 like a revoked one. Keys are made, rolled and revoked in the console (\`/console\`) or by the operator.
A signed-in console session may call the same operations as its own account, with its cookie instead of a
key (no plan or scope rule); a write made so needs the page's \`Origin\` and the \`X-CSRF-Token\` of the session.
The admin surface \`/admin/v1\` takes the operator's admin token instead. A scanner credential (\`sks_…\`) may only
record verdicts (\`POST /api/v1/skills/{slug}/versions/{version}/verdicts\`); anywhere else it is a 403.

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

/** The areas' paths in one object; two areas may document other methods of one path (members: removal and role change). */
function mergePaths(...areas: Array<Record<string, PathItem>>): Record<string, PathItem> {
  const paths: Record<string, PathItem> = {};
  for (const area of areas) for (const [path, item] of Object.entries(area)) paths[path] = { ...paths[path], ...item };
  return paths;
}

/** The areas' schemas in one object; a name two areas both define would silently replace one: refused. */
function mergeSchemas(...areas: Array<Record<string, JsonSchema>>): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const area of areas) {
    for (const [name, schema] of Object.entries(area)) {
      if (name in schemas) throw new Error(`two areas of the OpenAPI document define the schema ${name}`);
      schemas[name] = schema;
    }
  }
  return schemas;
}

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
    {
      name: 'Workspaces',
      description: 'Self-service team workspaces: create one, members and roles, invitations by link.',
    },
    {
      name: 'Sign-in',
      description: 'Console accounts and sessions: sign-up, sign-in (password, links, OpenID Connect), sign-out.',
    },
    {
      name: 'API keys',
      description: "The signed-in account's own API keys: a console session only, never an API key.",
    },
    {
      name: 'Admin',
      description:
        'Operator surface: accounts, keys, catalog content, releases and verdicts, publishers, reports, scanners, workspaces, reindex.',
    },
    { name: 'Operations', description: 'Health, metrics and documentation; no credentials.' },
  ],
  security: [{ apiKey: [] }, { sessionCookie: [] }],
  paths: mergePaths(
    publicPaths,
    changesPaths,
    itemPaths,
    trustPaths,
    moderationPaths,
    workspacePaths,
    governancePaths,
    selfServicePaths,
    signInPaths,
    profilePaths,
    oidcPaths,
    adminPaths,
    operationalPaths,
  ),
  components: {
    securitySchemes: {
      apiKey: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'sk_live_ + 32 base62 characters',
        description: 'An API key of an account whose plan includes API access.',
      },
      sessionCookie: {
        type: 'apiKey',
        in: 'cookie',
        name: '__Host-skills_session',
        description:
          "A console session (`skills_session` on plain-HTTP loopback). Writes also need `X-CSRF-Token` and this site's `Origin`.",
      },
      adminBearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque admin token',
        description: "The operator's admin token (ADMIN_TOKEN), for /admin/v1 only.",
      },
      scannerBearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'sks_ + 40 base62 characters',
        description:
          'A scanner credential issued by the operator (docs/trust.md): it records verdicts and nothing else; every other operation answers 403.',
      },
    },
    schemas: mergeSchemas(
      publicSchemas,
      adminSchemas,
      profileSchemas,
      workspaceSchemas,
      trustSchemas,
      governanceSchemas,
    ),
    parameters,
    headers,
    responses,
  },
};
