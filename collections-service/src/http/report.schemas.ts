/** Bodies and queries of the report routes (docs/trust.md "Reports"). joi refuses unknown fields by default. */
import Joi from 'joi';
import { displayText, pageQueryFields, type PageRequest } from '@skills/common';
import { REPORT_REASONS, REPORT_STATUSES, type ReportReason, type ReportStatus } from '../domain/report';

export interface FileReportBody {
  reason: ReportReason;
  text: string;
}

export const fileReportSchema = Joi.object<FileReportBody>({
  reason: Joi.string()
    .valid(...REPORT_REASONS)
    .required(),
  text: displayText().allow('').max(2000).default(''),
}).required();

export const handleReportSchema = Joi.object<{ note: string }>({
  note: displayText().trim().min(1).max(1000).required(),
}).required();

export const reportsQuerySchema = Joi.object<PageRequest & { status?: ReportStatus }>({
  ...pageQueryFields,
  status: Joi.string().valid(...REPORT_STATUSES),
});
