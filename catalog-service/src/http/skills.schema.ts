import Joi from 'joi';
import { pageQueryFields } from '@skills/common';
import type { SearchParams } from '../domain/search-request';

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
  ...pageQueryFields,
  sort: Joi.string().valid('relevance', 'newest', 'name'),
});
