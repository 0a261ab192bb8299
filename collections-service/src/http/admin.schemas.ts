/** Request bodies and queries of the admin routes (docs/api.md "The admin surface"). */
import Joi from 'joi';
import { displayText } from '@skills/common';
import { WORKSPACE_ROLES, type WorkspaceRole } from '@skills/common/workspace-roles';
import type { ImportLine, PublicItemInput } from '../domain/model';
import { importReleasesSchema } from './release.schemas';

export const SLUG_PATTERN = /^[a-z0-9-]{1,100}$/;

/** A release as publishers write it: "1.4.0", "2.0.0-beta.1", "2024.06" (no spaces). */
const RELEASE_PATTERN = /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/;
/** An SPDX licence id ("MIT", "Apache-2.0", "LicenseRef-acme") or expression ("MIT OR Apache-2.0"). */
const SPDX_PATTERN = /^\(?[A-Za-z0-9][A-Za-z0-9.+-]*\)?(?: (?:AND|OR|WITH) \(?[A-Za-z0-9][A-Za-z0-9.+-]*\)?)*$/;

export const slugSchema = Joi.string().pattern(SLUG_PATTERN).required().label('slug');

/** PUT body: everything but the slug, which comes from the path. */
export const skillFieldsSchema = {
  name: displayText().trim().min(1).max(200).required(),
  description: displayText().allow('').max(5000).default(''),
  type: Joi.string().valid('skill', 'plugin').default('skill'),
  category: Joi.string().trim().min(1).max(100).required(),
  tags: Joi.array().items(Joi.string().trim().min(1).max(50)).max(20).default([]),
  // 'deleted' is reached only through DELETE, which emits skill.deleted.
  status: Joi.string().valid('active', 'draft', 'archived').default('active'),
  // Registry details: optional; null or absent clears one (downloads: absent keeps the stored count).
  publisher: Joi.string().trim().min(1).max(200).allow(null),
  version: Joi.string().trim().max(64).pattern(RELEASE_PATTERN).allow(null),
  license: Joi.string().trim().max(200).pattern(SPDX_PATTERN).allow(null),
  repositoryUrl: Joi.string()
    .trim()
    .max(2000)
    .uri({ scheme: ['https', 'http'] })
    .allow(null),
  homepageUrl: Joi.string()
    .trim()
    .max(2000)
    .uri({ scheme: ['https', 'http'] })
    .allow(null),
  downloads: Joi.number().integer().min(0).max(Number.MAX_SAFE_INTEGER),
};

export const putSkillSchema = Joi.object<Omit<PublicItemInput, 'slug'>>(skillFieldsSchema).required();

/** One NDJSON import line: the slug, the PUT fields and the item's releases (docs/trust.md "Import"). */
export const importLineSchema = Joi.object<ImportLine>({
  slug: Joi.string().pattern(SLUG_PATTERN).required(),
  ...skillFieldsSchema,
  releases: importReleasesSchema,
}).required();

export const privateSkillSchema = Joi.object<{ name: string; description: string }>({
  name: displayText().trim().min(1).max(120).required(),
  description: displayText().allow('').max(2000).default(''),
}).required();

export const createWorkspaceSchema = Joi.object<{ name: string; ownerAccountId: string }>({
  name: displayText().trim().min(1).max(120).required(),
  ownerAccountId: Joi.string().guid().required(),
}).required();

export const memberSchema = Joi.object<{ role: WorkspaceRole }>({
  role: Joi.string()
    .valid(...WORKSPACE_ROLES)
    .required(),
}).required();

export const itemsQuerySchema = Joi.object<{ after?: string; limit: number }>({
  after: Joi.string().guid(),
  limit: Joi.number().integer().min(1).max(5000).default(1000),
});
