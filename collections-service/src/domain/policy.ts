/**
 * The workspace policy (docs/governance.md "Policy"): its fields, its
 * defaults, the rules it applies to one item or release, and the compiled
 * form search applies. Pure functions, so each rule is checked on its own.
 */
import { licenseKeyOf, type ItemType, type MessageParams, type SearchPolicy, type Verdict } from '@skills/common';

export type MinimumVerdict = 'clean' | 'unscanned' | 'suspicious';

export interface WorkspacePolicy {
  minimumVerdict: MinimumVerdict;
  verifiedPublishersOnly: boolean;
  allowedPublishers: string[] | null;
  allowedLicenses: string[] | null;
  allowedTypes: ItemType[] | null;
  deniedSlugs: string[];
}

export const DEFAULT_POLICY: Readonly<WorkspacePolicy> = Object.freeze({
  minimumVerdict: 'suspicious',
  verifiedPublishersOnly: false,
  allowedPublishers: null,
  allowedLicenses: null,
  allowedTypes: null,
  deniedSlugs: [],
});

/** The stored policy with who set it and when; both null while the defaults apply. */
export interface PolicyRecord {
  policy: WorkspacePolicy;
  updatedAt: string | null;
  updatedBy: string | null;
}

/** The rules in the order a refusal names them (the first that breaks). */
export const POLICY_RULES = [
  'minimumVerdict',
  'verifiedPublishersOnly',
  'allowedPublishers',
  'allowedLicenses',
  'allowedTypes',
  'deniedSlugs',
] as const;
export type PolicyRule = (typeof POLICY_RULES)[number];

/** What a rule breaks on: the message key is `policy.<rule>`, interpolating `params`. */
export interface Violation {
  rule: PolicyRule;
  params: MessageParams;
}

/** The facts of an item (and, for a pinned entry, of its release's verdict) a policy judges. */
export interface PolicySubject {
  slug: string;
  type: ItemType;
  license: string | null;
  publisher: string | null;
  publisherVerified: boolean;
  /** the pinned release's verdict, or the item's for an unpinned entry */
  verdict: Verdict;
}

const VERDICT_ORDER: readonly Verdict[] = ['clean', 'unscanned', 'suspicious', 'malicious'];

/** The verdicts a minimum allows, best first; malicious never. */
export function allowedVerdicts(minimum: MinimumVerdict): Verdict[] {
  return VERDICT_ORDER.slice(0, VERDICT_ORDER.indexOf(minimum) + 1);
}

/** Every rule the subject breaks, in the rules' order. */
export function violationsOf(policy: WorkspacePolicy, s: PolicySubject): Violation[] {
  const out: Violation[] = [];
  const slug = s.slug;
  if (!allowedVerdicts(policy.minimumVerdict).includes(s.verdict)) {
    out.push({ rule: 'minimumVerdict', params: { slug, verdict: s.verdict, minimum: policy.minimumVerdict } });
  }
  if (policy.verifiedPublishersOnly && !s.publisherVerified) {
    out.push({ rule: 'verifiedPublishersOnly', params: { slug, publisher: s.publisher ?? '-' } });
  }
  if (policy.allowedPublishers && (s.publisher === null || !policy.allowedPublishers.includes(s.publisher))) {
    out.push({ rule: 'allowedPublishers', params: { slug, publisher: s.publisher ?? '-' } });
  }
  if (policy.allowedLicenses) {
    const key = licenseKeyOf(s.license);
    if (key === null || !policy.allowedLicenses.some((license) => licenseKeyOf(license) === key)) {
      out.push({ rule: 'allowedLicenses', params: { slug, license: s.license ?? '-' } });
    }
  }
  if (policy.allowedTypes && !policy.allowedTypes.includes(s.type)) {
    out.push({ rule: 'allowedTypes', params: { slug, type: s.type } });
  }
  if (policy.deniedSlugs.includes(s.slug)) out.push({ rule: 'deniedSlugs', params: { slug } });
  return out;
}

/** The policy as search applies it (common/src/events.ts SearchPolicy). */
export function searchPolicyOf(workspaceId: string, policy: WorkspacePolicy): SearchPolicy {
  return {
    workspaceId,
    verdicts: allowedVerdicts(policy.minimumVerdict),
    verifiedPublishersOnly: policy.verifiedPublishersOnly,
    publishers: policy.allowedPublishers,
    licenses: policy.allowedLicenses && policy.allowedLicenses.map(licenseKeyOf).filter((key) => key !== null),
    types: policy.allowedTypes,
    deniedSlugs: policy.deniedSlugs,
  };
}
