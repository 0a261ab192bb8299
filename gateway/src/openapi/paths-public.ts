/** Search and personal collections: `/api/v1/skills`, `/api/v1/me/collections`. */
import { PAGE_ERRORS, headerRef, parameterRef, type Message } from './components';
import { operation, schemaRef } from './operation-builder';
import type { PathItem } from './openapi-types';

const NOW = '2026-11-21T09:30:00.000Z';
const COLLECTION_ID = '0b7e5d1c-3f4a-4c8e-9d2b-6a1f0e9c7b35';
const PRIVATE_ID = 'c3d9e8f7-2a1b-4c5d-8e6f-7a8b9c0d1e2f';

const exampleDetails = {
  publisher: 'Acme Tools',
  version: '1.4.0',
  license: 'MIT',
  repositoryUrl: 'https://github.com/acme/git-commit-helper',
  homepageUrl: null,
  downloads: 52000,
};

export const exampleSkill = {
  id: '7f3b2c1d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  slug: 'git-commit-helper',
  name: 'Git commit helper',
  description: 'Writes conventional commit messages from a staged diff.',
  type: 'skill',
  category: 'developer-tools',
  tags: ['git', 'productivity'],
  ...exampleDetails,
  latestVersion: '1.4.0',
  verdict: 'clean',
  publisherVerified: true,
  updatedAt: NOW,
};

export const examplePublicEntry = {
  slug: 'git-commit-helper',
  name: 'Git commit helper',
  type: 'skill',
  category: 'developer-tools',
  status: 'active',
  visibility: 'public',
  ...exampleDetails,
  latestVersion: '1.4.0',
  verdict: 'clean',
  publisherVerified: true,
  blocked: false,
  blockedReason: null,
};

const examplePersonal = {
  id: COLLECTION_ID,
  name: 'Daily tools',
  description: 'What I use every day',
  skillCount: 2,
  skills: [
    examplePublicEntry,
    { id: PRIVATE_ID, name: 'My release checklist', description: 'Steps before a release', visibility: 'private' },
  ],
  createdAt: NOW,
  updatedAt: NOW,
};

const nameErrors: Message[] = [
  ['validation.required', { field: 'name' }],
  ['validation.stringMax', { field: 'name', limit: 120 }],
  ['validation.bidiControl', { field: 'name' }],
  ['validation.unknownField', { field: 'color' }],
];
const patchErrors: Message[] = [
  ['body.empty'],
  ['validation.stringMax', { field: 'description', limit: 2000 }],
  ['validation.bidiControl', { field: 'name' }],
  ['validation.unknownField', { field: 'color' }],
];
const collectionMissing: Message[] = [['collection.notFound']];

const search = operation({
  operationId: 'searchSkills',
  summary: 'Search active catalog items',
  description:
    'Text search over name (boosted) and description, prefix and typo tolerant (one edit from 4 letters, two from 8); filters are exact. ' +
    'Only active public items. Ordered by relevance (text score × (1 + 0.5 × popularity), exact name first) when `q` is given, ' +
    'otherwise newest first. Safe by default (docs/trust.md): a blocked item (latest release `malicious`) is never returned, ' +
    '`suspicious` ones only when `trust` asks for them. A query finding fewer than 3 items may carry `suggestion`, a close spelling that finds more. ' +
    'With the search model (docs/search.md "Search by intent"), a query of three words or more (stop words aside) is hybrid by default: the items holding every word, ' +
    'plus the items nearest in meaning (a sentence such as "turn a PDF document into markdown text" finds what its words alone do not), ' +
    'fused into one ranking, filters, totals and facets over both; `data.search.mode` says which mode ran. ' +
    'Unknown query parameters → 400. Read-only.',
  tag: 'Catalog',
  kind: 'public',
  conditional: true,
  parameters: [
    {
      name: 'q',
      in: 'query',
      description: 'Words searched in names and descriptions.',
      schema: { type: 'string', maxLength: 200 },
      example: 'git commit',
    },
    {
      name: 'category',
      in: 'query',
      description: 'Exact category slug.',
      schema: { type: 'string', maxLength: 100, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' },
      example: 'developer-tools',
    },
    { name: 'type', in: 'query', description: 'Item type.', schema: { type: 'string', enum: ['skill', 'plugin'] } },
    {
      name: 'tag',
      in: 'query',
      description: 'Exact tag; repeat it to require several (all must match).',
      schema: { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 50 } },
      example: ['git'],
    },
    {
      name: 'trust',
      in: 'query',
      description:
        "Which verdicts of an item's latest release to show: `any`, or a comma list of `clean`, `suspicious`, `unscanned`. " +
        'Default `clean,unscanned` (`clean` alone when the deployment hides unscanned items). `malicious` is refused: a blocked item is never returned.',
      schema: { type: 'string', pattern: '^(any|(clean|suspicious|unscanned)(,(clean|suspicious|unscanned))*)$' },
      example: 'clean,suspicious',
    },
    {
      name: 'verifiedPublisher',
      in: 'query',
      description: 'Only items whose publisher an operator verified (`true`), or did not (`false`).',
      schema: { type: 'boolean' },
    },
    {
      name: 'facets',
      in: 'query',
      description:
        'Comma-separated fields to count per value over every match: `category`, `type`, `trust`, `verifiedPublisher`.',
      schema: {
        type: 'string',
        pattern: '^(category|type|trust|verifiedPublisher)(,(category|type|trust|verifiedPublisher))*$',
      },
      example: 'category,trust',
    },
    {
      name: 'limit',
      in: 'query',
      description: 'Results per page.',
      schema: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
    },
    {
      name: 'page',
      in: 'query',
      description: 'Page to load, from 1; `page × limit` must be at most 10,000.',
      schema: { type: 'integer', minimum: 1, default: 1 },
    },
    {
      name: 'sort',
      in: 'query',
      description: 'Order; default `relevance` with `q`, else `newest`. `popular`: most downloads first.',
      schema: { type: 'string', enum: ['relevance', 'newest', 'name', 'popular'] },
    },
    {
      name: 'mode',
      in: 'query',
      description:
        '`hybrid` (the default with the search model): words and meaning fused, for a `q` of three words or more, stop words aside (one or two run on words alone); ' +
        '`lexical`: words only; `semantic`: meaning only (the nearest items). Without the model every search is lexical. The answer says which ran (`data.search.mode`).',
      schema: { type: 'string', enum: ['lexical', 'hybrid', 'semantic'] },
    },
    {
      name: 'workspace',
      in: 'query',
      description:
        "Apply this workspace's policy (docs/governance.md) on top of the other filters: members only (404 for anyone else). " +
        'A key bound to a workspace applies its policy to every search without it; naming another workspace is then a 403.',
      schema: { type: 'string', maxLength: 100 },
      example: '5d2c8e1a-7b4f-4e9d-a3c6-1f0b9e8d7c24',
    },
  ],
  success: {
    status: '200',
    description: 'One page of results.',
    schema: schemaRef('SearchResult'),
    headers: { 'Cache-Control': headerRef('CacheControl') },
    example: {
      data: {
        skills: [exampleSkill],
        pagination: { page: 1, limit: 20, total: 1, totalPages: 1, hasMore: false },
        search: { mode: 'lexical' },
      },
    },
  },
  errors: {
    '400': [
      ['validation.numberMax', { field: 'limit', limit: 50 }],
      ['validation.numberMin', { field: 'page', limit: 1 }],
      ['validation.deepPage', { limit: 10000 }],
      ['validation.oneOf', { field: 'type', values: 'skill, plugin' }],
      ['validation.oneOf', { field: 'facets', values: 'category, type, trust, verifiedPublisher' }],
      ['validation.oneOf', { field: 'trust', values: 'any, clean, suspicious, unscanned' }],
      ['search.trustBlocked'],
      ['validation.unknownField', { field: 'color' }],
    ],
    '403': [['apiKey.boundToOtherWorkspace'], ['workspace.noAccess']],
    '404': [['workspace.notFound']],
  },
});

const listPersonal = operation({
  operationId: 'listMyCollections',
  summary: 'List the personal collections of the key owner',
  tag: 'Personal collections',
  description:
    'Oldest first, a page at a time like search. Each collection carries `skillCount` and a preview of its entries: ' +
    '`skills` holds the first 5 added (read the collection for all of them), so a page stays small whatever the collections hold.',
  kind: 'public',
  conditional: true,
  parameters: [parameterRef('Page'), parameterRef('Limit')],
  success: {
    status: '200',
    description: 'One page of the collections, each with its entry count and first entries (public and private).',
    schema: schemaRef('PersonalCollectionList'),
    example: {
      data: {
        collections: [examplePersonal],
        pagination: { page: 1, limit: 20, total: 1, totalPages: 1, hasMore: false },
      },
    },
  },
  errors: { '400': PAGE_ERRORS },
});

const createPersonal = operation({
  operationId: 'createMyCollection',
  summary: 'Create a personal collection',
  tag: 'Personal collections',
  kind: 'public',
  idempotent: true,
  body: {
    schema: schemaRef('CreateCollection'),
    examples: {
      create: { summary: 'Name and description', value: { name: 'Daily tools', description: 'What I use every day' } },
    },
  },
  success: {
    status: '201',
    description: 'Created.',
    schema: schemaRef('PersonalCollectionResult'),
    example: { data: { collection: { ...examplePersonal, skillCount: 0, skills: [] } } },
  },
  errors: {
    '400': [...nameErrors, ['idempotency.invalidKey', { max: 255 }]],
    '409': [['quota.collectionsPerAccount', { limit: 100 }], ['idempotency.mismatch']],
  },
});

const getPersonal = operation({
  operationId: 'getMyCollection',
  summary: 'Read one personal collection',
  tag: 'Personal collections',
  kind: 'public',
  conditional: true,
  parameters: [parameterRef('CollectionId')],
  success: {
    status: '200',
    description: 'The collection.',
    schema: schemaRef('PersonalCollectionResult'),
    example: { data: { collection: examplePersonal } },
  },
  errors: { '404': collectionMissing },
});

const patchPersonal = operation({
  operationId: 'updateMyCollection',
  summary: 'Rename, change the description, add or remove skills',
  tag: 'Personal collections',
  kind: 'public',
  ifMatch: true,
  parameters: [parameterRef('CollectionId')],
  body: {
    schema: schemaRef('PatchPersonalCollection'),
    examples: {
      add: { summary: 'Add a public skill', value: { skillSlug: 'git-commit-helper' } },
      several: {
        summary: 'Several changes at once',
        value: { name: 'Release tools', removeSkillSlug: 'old-linter', privateSkillId: PRIVATE_ID },
      },
    },
  },
  success: {
    status: '200',
    description: 'The updated collection, with the ETag a later `If-Match` names it by.',
    schema: schemaRef('PersonalCollectionResult'),
    headers: { ETag: headerRef('ETag') },
    example: { data: { collection: examplePersonal } },
  },
  errors: {
    '400': patchErrors,
    '404': [
      ...collectionMissing,
      ['skill.notFound', { slug: 'no-such-skill' }],
      ['privateSkill.notFound', { id: PRIVATE_ID }],
      ['release.notFound', { slug: 'pdf-skill', version: '9.9.9' }],
    ],
    '409': [
      ['quota.entriesPerCollection', { limit: 1000 }],
      ['skill.blocked', { slug: 'credential-stealer', reason: 'Posts ~/.aws/credentials to a paste site.' }],
    ],
  },
});

const deletePersonal = operation({
  operationId: 'deleteMyCollection',
  summary: 'Delete a personal collection',
  description: 'The skills it referenced are kept. A second DELETE gives 404.',
  tag: 'Personal collections',
  kind: 'public',
  ifMatch: true,
  parameters: [parameterRef('CollectionId')],
  success: {
    status: '200',
    description: 'Deleted.',
    schema: schemaRef('Deleted'),
    example: { data: { deleted: true } },
  },
  errors: { '404': collectionMissing },
});

export const publicPaths: Record<string, PathItem> = {
  '/api/v1/skills': { get: search },
  '/api/v1/me/collections': { get: listPersonal, post: createPersonal },
  '/api/v1/me/collections/{id}': { get: getPersonal, patch: patchPersonal, delete: deletePersonal },
};
