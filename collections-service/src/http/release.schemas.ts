/** Bodies and queries of the release, verdict and publisher routes (docs/trust.md). */
import Joi from 'joi';
import { displayText, pageQueryFields, type PageRequest, type ScanVerdict } from '@skills/common';
import type { ImportRelease, ReleaseInput } from '../domain/model';
import { MAX_RELEASES_PER_LINE, MAX_VERSION_LENGTH, isReleaseVersion } from '../domain/release-rules';

const SCAN_VERDICTS: readonly ScanVerdict[] = ['clean', 'suspicious', 'malicious'];
const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;
const REF_PATTERN = /^[A-Za-z0-9._/-]{1,200}$/;

/** SemVer 2.0.0 without build metadata or a leading "v" (release-rules.ts); `release.semver` says so in both languages. */
export const releaseVersionSchema = Joi.string()
  .max(MAX_VERSION_LENGTH)
  .custom((value: string, helpers) => (isReleaseVersion(value) ? value : helpers.error('release.semver')));

const releaseFields = {
  version: releaseVersionSchema.required(),
  digest: Joi.string().max(71).pattern(DIGEST_PATTERN).required(),
  publishedAt: Joi.string().isoDate(),
  source: Joi.object({
    repository: Joi.string()
      .max(500)
      .uri({ scheme: ['https'] })
      .required(),
    ref: Joi.string().max(200).pattern(REF_PATTERN).required(),
  }).required(),
};

export const publishSchema = Joi.object<ReleaseInput>(releaseFields).required();

/** A release on an import line may arrive yanked already. */
export const importReleasesSchema = Joi.array()
  .items(
    Joi.object<ImportRelease>({
      ...releaseFields,
      yanked: Joi.object({ reason: displayText().trim().min(1).max(500).required() }).allow(null),
    }),
  )
  .max(MAX_RELEASES_PER_LINE);

export const yankSchema = Joi.object<{ reason: string }>({
  reason: displayText().trim().min(1).max(500).required(),
}).required();

export const overrideSchema = Joi.object<{ verdict: ScanVerdict; note: string }>({
  verdict: Joi.string()
    .valid(...SCAN_VERDICTS)
    .required(),
  note: displayText().trim().min(1).max(500).required(),
}).required();

export const scanSchema = Joi.object<{ verdict: ScanVerdict; summary: string; reportUrl: string | null }>({
  verdict: Joi.string()
    .valid(...SCAN_VERDICTS)
    .required(),
  summary: displayText().trim().min(1).max(500).required(),
  reportUrl: Joi.string()
    .max(2000)
    .uri({ scheme: ['https'] })
    .allow(null)
    .default(null),
}).required();

export const publisherNameSchema = Joi.string().trim().min(1).max(200).required().label('name');

export const putPublisherSchema = Joi.object<{ verified: boolean; note: string | null }>({
  verified: Joi.boolean().strict().required(),
  note: displayText().trim().max(500).allow(null, '').default(null),
}).required();

export const publishersQuerySchema = Joi.object<PageRequest & { verified?: boolean }>({
  ...pageQueryFields,
  verified: Joi.boolean(),
});

export const pageQuerySchema = Joi.object<PageRequest>(pageQueryFields);
