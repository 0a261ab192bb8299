/**
 * Reports of public items (docs/trust.md "Reports"): what an account files
 * and what an operator does with it.
 */
export const REPORT_REASONS = [
  'malware',
  'credential-theft',
  'prompt-injection',
  'impersonation',
  'spam',
  'broken',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
/** What an operator turns an open report into. */
export type ReportOutcome = Exclude<ReportStatus, 'open'>;

/** Reports one account may file in any 24 hours unless REPORTS_PER_ACCOUNT_PER_DAY says otherwise. */
export const DEFAULT_REPORTS_PER_ACCOUNT_PER_DAY = 20;

/** The window the per-account limit counts reports in. */
export const REPORT_WINDOW_MS = 24 * 3600 * 1000;

export interface NewReport {
  itemId: string;
  reporterAccountId: string;
  reason: ReportReason;
  text: string;
}

/** A report with the slug and name of the item it is about. */
export interface ReportRecord {
  id: string;
  slug: string;
  itemName: string;
  reporterAccountId: string;
  reason: ReportReason;
  text: string;
  status: ReportStatus;
  createdAt: string;
  /** null while open */
  handledAt: string | null;
  /** the operator's note; null while open */
  note: string | null;
}
