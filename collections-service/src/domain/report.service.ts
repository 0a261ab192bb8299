/**
 * Reports of public items (docs/trust.md "Reports"). An account files one
 * about an active public item, at most `perAccountPerDay` in any 24 hours;
 * operators list the queue and resolve or dismiss an open report with a note.
 */
import { ConflictError, NotFoundError, isUuid, type PageRequest } from '@skills/common';
import { assertRoomIn } from './limits';
import type { CollectionsStore } from './ports';
import { findShownBySlug } from './public-skill.service';
import {
  REPORT_WINDOW_MS,
  type ReportOutcome,
  type ReportReason,
  type ReportRecord,
  type ReportStatus,
} from './report';

export interface ReportServiceOptions {
  /** reports one account may file in any 24 hours (REPORTS_PER_ACCOUNT_PER_DAY) */
  perAccountPerDay: number;
}

export class ReportService {
  constructor(
    private readonly store: CollectionsStore,
    private readonly options: ReportServiceOptions,
  ) {}

  /**
   * Files a report about an item search could show (404 otherwise). The
   * limit is counted in the database under a lock per account taken before
   * the count, so replicas agree and two filings racing for the last slot
   * are serialised: the second one sees the first.
   */
  file(accountId: string, slug: string, input: { reason: ReportReason; text: string }): Promise<ReportRecord> {
    return this.store.transaction(async (repos) => {
      const item = await findShownBySlug(repos.items, slug);
      await repos.reports.lockReporter(accountId);
      const limit = this.options.perAccountPerDay;
      assertRoomIn(await repos.reports.windowOf(accountId, REPORT_WINDOW_MS, limit), limit, 'report.rateLimited');
      return repos.reports.insert({
        itemId: item.id,
        reporterAccountId: accountId,
        reason: input.reason,
        text: input.text,
      });
    });
  }

  /** One page of reports, newest first, and how many match. */
  async list(status: ReportStatus | undefined, page: PageRequest): Promise<{ reports: ReportRecord[]; total: number }> {
    const { reports } = this.store.repos;
    const [total, rows] = await Promise.all([reports.count(status), reports.list(status, page)]);
    return { reports: rows, total };
  }

  /** Resolves or dismisses an open report; 404 when unknown, 409 when already handled. */
  async handle(id: string, outcome: ReportOutcome, note: string): Promise<ReportRecord> {
    if (!isUuid(id)) throw new NotFoundError('report.notFound');
    return this.store.transaction(async (repos) => {
      const handled = await repos.reports.handleOpen(id, outcome, note);
      if (handled) return handled;
      const existing = await repos.reports.findById(id);
      if (!existing) throw new NotFoundError('report.notFound');
      throw new ConflictError(existing.status === 'resolved' ? 'report.alreadyResolved' : 'report.alreadyDismissed');
    });
  }
}
