/** The body of a policy PUT (docs/governance.md "Policy"): a full replacement, absent fields take their defaults. */
import Joi from 'joi';
import { DEFAULT_POLICY, type WorkspacePolicy } from '../domain/policy';

export const MAX_POLICY_LIST = 200;
export const MAX_POLICY_VALUE = 214;

// SPDX identifiers (MIT, Apache-2.0, GPL-3.0-or-later, LicenseRef-acme): letters, digits, '.', '-', '+'.
const SPDX_ID = /^[A-Za-z0-9][A-Za-z0-9.+-]*$/;

const value = Joi.string().min(1).max(MAX_POLICY_VALUE);
const list = (item: Joi.StringSchema) => Joi.array().items(item).max(MAX_POLICY_LIST);
// a licence is the same whatever its case (the rule compares case-insensitively), so is a duplicate
const sameLicense = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export const policySchema = Joi.object<WorkspacePolicy>({
  minimumVerdict: Joi.string().valid('clean', 'unscanned', 'suspicious').default(DEFAULT_POLICY.minimumVerdict),
  verifiedPublishersOnly: Joi.boolean().strict().default(DEFAULT_POLICY.verifiedPublishersOnly),
  allowedPublishers: list(value).unique().allow(null).default(null),
  allowedLicenses: list(value.pattern(SPDX_ID)).unique(sameLicense).allow(null).default(null),
  allowedTypes: list(Joi.string().valid('skill', 'plugin')).unique().allow(null).default(null),
  deniedSlugs: list(value)
    .unique()
    .default(() => []),
}).required();
