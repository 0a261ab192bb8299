/**
 * Schemas of the public API (components.schemas). Field lists and bounds come
 * from the contract and its decisions (docs/api.md); response objects are closed
 * (`additionalProperties: false`) so a field a service adds without updating
 * this document fails `assertMatchesOpenApi` in the end-to-end suite.
 */
import type { JsonSchema } from './openapi-types';
import { itemTrustFields } from './schemas-release';

/** The trust a collection entry shows: the item's, without the feed's releases. */
const entryTrustNames = ['latestVersion', 'verdict', 'publisherVerified', 'blocked', 'blockedReason'];

export const NAME_MAX = 120;
export const DESCRIPTION_MAX = 2000;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const uuid: JsonSchema = { type: 'string', format: 'uuid' };
const timestamp: JsonSchema = { type: 'string', format: 'date-time' };
// Looked up, not checked by shape: an unknown slug or id is a 404 naming it.
const reference: JsonSchema = { type: 'string', minLength: 1, maxLength: 200 };
const SKILL_COUNT: JsonSchema = {
  type: 'integer',
  minimum: 0,
  maximum: 1000,
  description: 'How many entries the collection holds',
};
const SKILLS_IN_LISTS =
  'In a detail every entry, in the order added; in a list page only the first 5 (see `skillCount`).';
const itemType: JsonSchema = { type: 'string', enum: ['skill', 'plugin'] };
/** Private items have no category. */
const category: JsonSchema = { type: ['string', 'null'], description: 'Category slug; null for a private item' };

/** An item's registry details (docs/api.md), on search results, changes and public collection entries. */
export const detailFields: Record<string, JsonSchema> = {
  publisher: { type: ['string', 'null'], description: 'Display name of the publisher' },
  version: { type: ['string', 'null'], description: 'Release the publisher names, e.g. `1.4.0`' },
  license: { type: ['string', 'null'], description: 'SPDX licence id or expression' },
  repositoryUrl: { type: ['string', 'null'], format: 'uri' },
  homepageUrl: { type: ['string', 'null'], format: 'uri' },
  downloads: {
    type: 'integer',
    minimum: 0,
    description: 'Use count; relevance prefers the most used among equal text matches',
  },
};
const detailNames = Object.keys(detailFields);

const facetValues: JsonSchema = {
  type: 'array',
  maxItems: 100,
  description: 'Most frequent first, then by value; counts capped at 10,000 like `total`.',
  items: {
    type: 'object',
    required: ['value', 'count'],
    additionalProperties: false,
    properties: { value: { type: 'string' }, count: { type: 'integer', minimum: 1, maximum: 10000 } },
  },
};

/** `{ data: <inner> }`, the success envelope of every JSON answer. */
export function envelope(properties: Record<string, JsonSchema>): JsonSchema {
  return {
    type: 'object',
    required: ['data'],
    additionalProperties: false,
    properties: {
      data: { type: 'object', required: Object.keys(properties), additionalProperties: false, properties },
    },
  };
}

export const publicSchemas: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    description: 'Every error body. The text is English or French after `Accept-Language`.',
    required: ['error'],
    additionalProperties: false,
    properties: { error: { type: 'string' } },
  },
  CatalogItem: {
    type: 'object',
    // every answer naming an item carries its trust; `blocked`, `blockedReason` and `releases` only where their descriptions say
    required: [
      'id',
      'slug',
      'name',
      'description',
      'type',
      'category',
      'tags',
      ...detailNames,
      'latestVersion',
      'verdict',
      'publisherVerified',
      'updatedAt',
    ],
    additionalProperties: false,
    properties: {
      id: uuid,
      slug: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      type: itemType,
      category: { type: 'string', description: 'Category slug' },
      tags: { type: 'array', items: { type: 'string' } },
      ...detailFields,
      ...itemTrustFields,
      updatedAt: timestamp,
    },
  },
  Pagination: {
    type: 'object',
    required: ['page', 'limit', 'total', 'totalPages', 'hasMore'],
    additionalProperties: false,
    properties: {
      page: { type: 'integer', minimum: 1 },
      limit: { type: 'integer', minimum: 1, maximum: 50 },
      total: { type: 'integer', minimum: 0 },
      totalPages: { type: 'integer', minimum: 0 },
      hasMore: { type: 'boolean' },
    },
  },
  SearchResult: {
    type: 'object',
    required: ['data'],
    additionalProperties: false,
    properties: {
      data: {
        type: 'object',
        required: ['skills', 'pagination'],
        additionalProperties: false,
        properties: {
          skills: { type: 'array', items: ref('CatalogItem') },
          pagination: ref('Pagination'),
          facets: {
            type: 'object',
            description: 'Only with `facets=`: counts per value over every match of the query and filters.',
            additionalProperties: false,
            properties: {
              category: facetValues,
              type: facetValues,
              trust: {
                ...facetValues,
                description: 'Per item verdict: `clean`, `suspicious`, `unscanned` (a blocked item is never counted).',
              },
              verifiedPublisher: { ...facetValues, description: '`true` or `false`.' },
            },
          },
          suggestion: {
            type: 'object',
            description: 'Only when the query found fewer than 3 items and a close spelling finds more.',
            required: ['q', 'total'],
            additionalProperties: false,
            properties: { q: { type: 'string' }, total: { type: 'integer', minimum: 1 } },
          },
          search: {
            type: 'object',
            description: 'How the search ran (catalog-service always says).',
            required: ['mode'],
            additionalProperties: false,
            properties: {
              mode: {
                type: 'string',
                enum: ['lexical', 'hybrid', 'semantic'],
                description:
                  '`lexical` when the model is absent or off, the query has no text or fewer than three words, or `mode=lexical` asked it.',
              },
            },
          },
        },
      },
    },
  },
  SkillChange: {
    type: 'object',
    required: ['slug', 'change', 'updatedAt'],
    additionalProperties: false,
    properties: {
      slug: { type: 'string' },
      change: { type: 'string', enum: ['upsert', 'delete'] },
      item: { ...ref('CatalogItem'), description: 'The item as search shows it; only on `upsert`.' },
      updatedAt: timestamp,
    },
  },
  SkillChanges: envelope({
    changes: { type: 'array', items: ref('SkillChange') },
    nextCursor: { type: 'string', description: 'Pass it as `since` for the next changes.' },
    hasMore: { type: 'boolean', description: 'More changes are ready now; false: caught up for now.' },
  }),
  PublicSkillEntry: {
    type: 'object',
    description:
      'A public skill in a collection; a skill deleted from the catalog stays with `status: "deleted"`, a blocked one with `blocked: true` and why, so its holders learn it.',
    required: ['slug', 'name', 'type', 'category', 'status', 'visibility', ...detailNames, ...entryTrustNames],
    additionalProperties: false,
    properties: {
      slug: { type: 'string' },
      name: { type: 'string' },
      type: itemType,
      category,
      status: { type: 'string', enum: ['active', 'draft', 'archived', 'deleted'] },
      visibility: { const: 'public' },
      ...detailFields,
      ...Object.fromEntries(entryTrustNames.map((name) => [name, itemTrustFields[name] as JsonSchema])),
      // docs/governance.md: every public entry shows its pin; a team collection's also its compliance and drift
      pin: {
        oneOf: [{ type: 'null' }, ref('EntryPin')],
        description: 'The pinned release as it is now; null: the entry follows the item',
      },
      compliance: {
        ...ref('EntryCompliance'),
        description: 'Team collections: the entry under the workspace policy now',
      },
      drift: {
        type: 'array',
        items: ref('EntryDrift'),
        description: 'Team collections: what changed since the pin (empty: nothing)',
      },
    },
  },
  PrivateSkillEntry: {
    type: 'object',
    description: 'A private personal skill of the key owner.',
    required: ['id', 'name', 'description', 'visibility'],
    additionalProperties: false,
    properties: {
      id: uuid,
      name: { type: 'string' },
      description: { type: 'string' },
      visibility: { const: 'private' },
    },
  },
  CollectionEntry: {
    oneOf: [ref('PublicSkillEntry'), ref('PrivateSkillEntry')],
    discriminator: {
      propertyName: 'visibility',
      mapping: { public: '#/components/schemas/PublicSkillEntry', private: '#/components/schemas/PrivateSkillEntry' },
    },
  },
  PersonalCollection: {
    type: 'object',
    required: ['id', 'name', 'description', 'skillCount', 'skills', 'createdAt', 'updatedAt'],
    additionalProperties: false,
    properties: {
      id: uuid,
      name: { type: 'string', minLength: 1, maxLength: NAME_MAX },
      description: { type: 'string', maxLength: DESCRIPTION_MAX },
      skillCount: SKILL_COUNT,
      skills: { type: 'array', items: ref('CollectionEntry'), description: SKILLS_IN_LISTS },
      createdAt: timestamp,
      updatedAt: timestamp,
    },
  },
  TeamCollection: {
    type: 'object',
    required: [
      'id',
      'workspaceId',
      'name',
      'description',
      'createdBy',
      'skillCount',
      'skills',
      'createdAt',
      'updatedAt',
    ],
    additionalProperties: false,
    properties: {
      id: uuid,
      workspaceId: uuid,
      name: { type: 'string', minLength: 1, maxLength: NAME_MAX },
      description: { type: 'string', maxLength: DESCRIPTION_MAX },
      createdBy: { ...uuid, description: 'Account that created the collection' },
      skillCount: SKILL_COUNT,
      skills: { type: 'array', items: ref('PublicSkillEntry'), description: SKILLS_IN_LISTS },
      compliance: {
        ...ref('CollectionCompliance'),
        description: 'Whether every entry complies with the workspace policy, computed on read',
      },
      drift: { ...ref('CollectionDrift'), description: 'How many entries have a drift cause, computed on read' },
      createdAt: timestamp,
      updatedAt: timestamp,
    },
  },
  PersonalCollectionList: envelope({
    collections: { type: 'array', items: ref('PersonalCollection') },
    pagination: ref('Pagination'),
  }),
  PersonalCollectionResult: envelope({ collection: ref('PersonalCollection') }),
  TeamCollectionList: envelope({
    collections: { type: 'array', items: ref('TeamCollection') },
    pagination: ref('Pagination'),
  }),
  TeamCollectionResult: envelope({ collection: ref('TeamCollection') }),
  Deleted: envelope({ deleted: { const: true } }),
  Removed: envelope({ removed: { const: true } }),
  CreateCollection: {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', minLength: 1, maxLength: NAME_MAX, description: 'Trimmed before it is stored' },
      description: { type: 'string', maxLength: DESCRIPTION_MAX },
    },
  },
  PatchTeamCollection: {
    type: 'object',
    description:
      'At least one field. Several fields apply in one transaction: removals, additions, then the rename. ' +
      'Adding a skill already present changes nothing.',
    minProperties: 1,
    additionalProperties: false,
    properties: {
      name: { type: 'string', minLength: 1, maxLength: NAME_MAX, description: 'Trimmed before it is stored' },
      description: { type: 'string', maxLength: DESCRIPTION_MAX },
      skillSlug: {
        ...reference,
        description:
          'Adds the active public skill with this slug, pinned to the latest release the workspace policy allows',
      },
      version: {
        type: 'string',
        maxLength: 64,
        description:
          'With `skillSlug`: pins that release (its digest comes from the catalog); for an entry already present, moves its pin',
      },
      removeSkillSlug: { ...reference, description: 'Removes the public skill with this slug' },
    },
  },
  PatchPersonalCollection: {
    type: 'object',
    description:
      'At least one field. Several fields apply in one transaction: removals, additions, then the rename. ' +
      'Adding a skill already present changes nothing.',
    minProperties: 1,
    additionalProperties: false,
    properties: {
      name: { type: 'string', minLength: 1, maxLength: NAME_MAX, description: 'Trimmed before it is stored' },
      description: { type: 'string', maxLength: DESCRIPTION_MAX },
      skillSlug: {
        ...reference,
        description: 'Adds the active public skill with this slug (following the item, unless `version` pins it)',
      },
      version: { type: 'string', maxLength: 64, description: 'With `skillSlug`: pins that release' },
      removeSkillSlug: { ...reference, description: 'Removes the public skill with this slug' },
      privateSkillId: { ...reference, description: 'Adds a private skill of the key owner' },
      removePrivateSkillId: { ...reference, description: 'Removes a private skill from the collection' },
    },
  },
};
