import Joi from 'joi';
import { pageQueryFields } from '@skills/common';
import type { SearchParams } from '../domain/search-request';
import { FACET_FIELDS } from '../engines/search-engine';

/** Category slugs: lower-case words joined by single hyphens. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Query of `GET /api/v1/skills`. Unknown parameters are refused (a typo such
 * as `catgory` must not silently widen the search); a repeated parameter
 * arrives as an array and fails its type.
 */
export const searchSkillsQuery = Joi.object<SearchParams>({
  q: Joi.string().trim().max(200).allow(''),
  category: Joi.string().max(100).pattern(SLUG),
  type: Joi.string().valid('skill', 'plugin'),
  // repeatable (`tag=a&tag=b`, all required); bounded like the tags an item may carry
  tag: Joi.array().single().items(Joi.string().trim().min(1).max(50)).max(20),
  facets: Joi.string().custom(facetList),
  ...pageQueryFields,
  sort: Joi.string().valid('relevance', 'newest', 'name', 'popular'),
});

/** `facets=category,type` → ['category', 'type']; an unknown field fails as `any.only`, naming the valid ones. */
function facetList(value: string, helpers: Joi.CustomHelpers): unknown {
  const fields = [...new Set(value.split(',').map((f) => f.trim()))];
  if (fields.some((f) => !(FACET_FIELDS as readonly string[]).includes(f))) return helpers.error('any.only', { valids: [...FACET_FIELDS] });
  return fields;
}
