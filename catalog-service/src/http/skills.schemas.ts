import Joi from 'joi';
import { pageQueryFields } from '@skills/common';
import type { SearchParams } from '../domain/search-request';
import { SEARCH_MODES } from '../domain/hybrid-ranking';
import { FACET_FIELDS, SEARCHABLE_VERDICTS } from '../engines/search-engine';

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
  trust: Joi.string().custom(trustList),
  verifiedPublisher: Joi.string().custom(booleanWord),
  facets: Joi.string().custom(facetList),
  ...pageQueryFields,
  sort: Joi.string().valid('relevance', 'newest', 'name', 'popular'),
  mode: Joi.string().valid(...SEARCH_MODES),
  // The gateway resolves `workspace=` into the signed principal's searchPolicy
  // (docs/governance.md); here it is only let through, never read: the policy
  // applied is the signed one, whatever the query string says.
  workspace: Joi.string().max(100),
});

/** `facets=category,type` → ['category', 'type']; an unknown field fails as `any.only`, naming the valid ones. */
function facetList(value: string, helpers: Joi.CustomHelpers): unknown {
  const fields = [...new Set(value.split(',').map((f) => f.trim()))];
  if (fields.some((f) => !(FACET_FIELDS as readonly string[]).includes(f)))
    return helpers.error('any.only', { valids: [...FACET_FIELDS] });
  return fields;
}

/**
 * `trust=any` or `trust=clean,suspicious` → 'any' or the list; an unknown
 * verdict fails as `any.only`, naming the valid ones. `malicious` passes
 * here so that the search rule refuses it with its own reason
 * (domain/search-request.ts).
 */
function trustList(value: string, helpers: Joi.CustomHelpers): unknown {
  if (value.trim() === 'any') return 'any';
  const verdicts = [...new Set(value.split(',').map((v) => v.trim()))];
  const known: readonly string[] = [...SEARCHABLE_VERDICTS, 'malicious'];
  if (verdicts.some((v) => !known.includes(v)))
    return helpers.error('any.only', { valids: ['any', ...SEARCHABLE_VERDICTS] });
  return verdicts;
}

/** `true` or `false` exactly, refused naming both otherwise (Joi.boolean() would also take `TRUE` and answer a bare "invalid"). */
function booleanWord(value: string, helpers: Joi.CustomHelpers): unknown {
  if (value === 'true' || value === 'false') return value === 'true';
  return helpers.error('any.only', { valids: ['true', 'false'] });
}
