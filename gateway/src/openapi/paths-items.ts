/** One catalog item by slug, and the caller's private skills: `/api/v1/skills/{slug}`, `/api/v1/me/private-skills`. */
import { PAGE_ERRORS, parameterRef } from './components';
import { operation, schemaRef } from './operation-builder';
import { exampleSkill } from './paths-public';
import type { PathItem } from './openapi-types';

const examplePrivate = {
  id: 'c3d9e8f7-2a1b-4c5d-8e6f-7a8b9c0d1e2f',
  name: 'My release checklist',
  description: 'Steps before a release',
};

export const itemPaths: Record<string, PathItem> = {
  '/api/v1/skills/{slug}': {
    get: operation({
      operationId: 'getSkill',
      summary: 'One active catalog item, every field',
      description:
        'Read from the system of record. A draft, archived or deleted item is 404 like an unknown slug; the slug `changes` is the changes feed. ' +
        'Scope: `search:read`.',
      tag: 'Catalog',
      kind: 'public',
      conditional: true,
      parameters: [
        {
          name: 'slug',
          in: 'path',
          required: true,
          description: "The item's slug.",
          schema: { type: 'string' },
          example: 'git-commit-helper',
        },
      ],
      success: {
        status: '200',
        description: 'The item.',
        schema: schemaRef('CatalogItemResult'),
        example: { data: { skill: exampleSkill } },
      },
      errors: { '404': [['skill.notFound', { slug: 'no-such-skill' }]] },
    }),
  },
  '/api/v1/me/private-skills': {
    get: operation({
      operationId: 'listMyPrivateSkills',
      summary: "The caller's private skills",
      description: 'Oldest first. Only the owner sees them. Scope: `collections:read`.',
      tag: 'Personal collections',
      kind: 'public',
      conditional: true,
      parameters: [parameterRef('Page'), parameterRef('Limit')],
      success: {
        status: '200',
        description: 'One page of them.',
        schema: schemaRef('PrivateSkillList'),
        example: {
          data: {
            skills: [examplePrivate],
            pagination: { page: 1, limit: 20, total: 1, totalPages: 1, hasMore: false },
          },
        },
      },
      errors: { '400': PAGE_ERRORS },
    }),
    post: operation({
      operationId: 'createMyPrivateSkill',
      summary: 'Create a private skill',
      description:
        'An API operation (a key with `collections:write`, or the console session): a skill only its owner sees, to add to personal collections ' +
        'with `privateSkillId`. At most 500 per account (409).',
      tag: 'Personal collections',
      kind: 'public',
      body: {
        schema: schemaRef('NewPrivateSkill'),
        examples: {
          create: {
            summary: 'Name and description',
            value: { name: 'My release checklist', description: 'Steps before a release' },
          },
        },
      },
      success: {
        status: '201',
        description: 'Created.',
        schema: schemaRef('PrivateSkillResult'),
        example: { data: { skill: examplePrivate } },
      },
      errors: {
        '400': [
          ['validation.required', { field: 'name' }],
          ['validation.stringMax', { field: 'description', limit: 2000 }],
          ['validation.bidiControl', { field: 'name' }],
        ],
        '409': [['quota.privateSkillsPerAccount', { limit: 500 }]],
      },
    }),
  },
};
