/** The changes feed for mirrors: `/api/v1/skills/changes`. */
import { operation, schemaRef } from './operation-builder';
import type { PathItem } from './openapi-types';
import { exampleSkill } from './paths-public';

const changes = operation({
  operationId: 'listSkillChanges',
  summary: 'Follow the catalog changes, to keep a copy of the catalog',
  description:
    'Public items in the order their last writes were committed, each as its latest state: `upsert` with the item as search ' +
    'shows it while it is active, else `delete`. Start without `since`, then pass each `nextCursor` back; `hasMore` false means ' +
    'caught up for now (poll again later with the same cursor: 304 with its ETag while nothing changed). A client that follows ' +
    'it from the start holds exactly the active catalog; no change is skipped, even when transactions commit out of order. ' +
    'Cursors are opaque and stay valid across restarts and replicas.',
  tag: 'Catalog',
  kind: 'public',
  conditional: true,
  parameters: [
    {
      name: 'since',
      in: 'query',
      description: 'A `nextCursor` of an earlier answer; absent: from the start.',
      schema: { type: 'string', maxLength: 200 },
    },
    {
      name: 'limit',
      in: 'query',
      description: 'Changes per answer.',
      schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
    },
  ],
  success: {
    status: '200',
    description: 'The next changes.',
    schema: schemaRef('SkillChanges'),
    example: {
      data: {
        changes: [
          { slug: exampleSkill.slug, change: 'upsert', item: exampleSkill, updatedAt: exampleSkill.updatedAt },
          { slug: 'retired-linter', change: 'delete', updatedAt: exampleSkill.updatedAt },
        ],
        nextCursor: 'YzEuNzQ4LjdmM2IyYzFkLTRlNWYtNGE2Yi04YzdkLTllMGYxYTJiM2M0ZA',
        hasMore: false,
      },
    },
  },
  errors: {
    '400': [
      ['validation.cursor', { field: 'since' }],
      ['validation.numberMax', { field: 'limit', limit: 500 }],
      ['validation.unknownField', { field: 'page' }],
    ],
  },
});

export const changesPaths: Record<string, PathItem> = {
  '/api/v1/skills/changes': { get: changes },
};
