import Joi from 'joi';
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
  limit: Joi.number().integer().min(1).max(50).default(20),
  page: Joi.number().integer().min(1).default(1),
  sort: Joi.string().valid('relevance', 'newest', 'name'),
});
