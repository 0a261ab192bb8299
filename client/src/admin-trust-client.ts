/**
 * The operator's side of docs/trust.md, which SkillsAdminClient inherits:
 * releases, verdict overrides, publishers, the reports queue and scanner
 * credentials. Kept apart from admin-client.ts only to keep each file small.
 */
import { ADMIN_OPERATIONS, type AdminOperationName } from './admin-operations';
import { Transport, type Call } from './transport';
import type {
  IssuedScanner,
  Judgement,
  PageParams,
  PublishReleaseInput,
  Publisher,
  PublisherPage,
  ReleaseDetail,
  Report,
  ReportPage,
  ReportStatus,
  Scanner,
} from './types';

export interface SkillsAdminClientOptions {
  baseUrl: string;
  /** the operator's ADMIN_TOKEN, sent as `Authorization: Bearer` */
  adminToken: string;
  language?: 'en' | 'fr';
  fetch?: typeof fetch;
}

export abstract class AdminTrustMethods {
  protected readonly http: Transport;

  constructor(options: SkillsAdminClientOptions) {
    this.http = new Transport({
      baseUrl: options.baseUrl,
      credentials: { apiKey: options.adminToken },
      language: options.language,
      fetch: options.fetch,
    });
  }

  /** Publishes a release; the same version with the same digest answers it again, another digest is ApiError 409. */
  async publishRelease(slug: string, input: PublishReleaseInput): Promise<ReleaseDetail> {
    return (await this.call<{ release: ReleaseDetail }>('adminPublishRelease', { params: { slug }, body: input }))
      .release;
  }

  async yankRelease(slug: string, version: string, reason: string): Promise<ReleaseDetail> {
    return (
      await this.call<{ release: ReleaseDetail }>('adminYankRelease', { params: { slug, version }, body: { reason } })
    ).release;
  }

  async unyankRelease(slug: string, version: string): Promise<ReleaseDetail> {
    return (await this.call<{ release: ReleaseDetail }>('adminUnyankRelease', { params: { slug, version } })).release;
  }

  async overrideVerdict(slug: string, version: string, verdict: Judgement, note: string): Promise<ReleaseDetail> {
    return (
      await this.call<{ release: ReleaseDetail }>('adminOverrideVerdict', {
        params: { slug, version },
        body: { verdict, note },
      })
    ).release;
  }

  async clearVerdictOverride(slug: string, version: string): Promise<ReleaseDetail> {
    return (await this.call<{ release: ReleaseDetail }>('adminClearVerdictOverride', { params: { slug, version } }))
      .release;
  }

  listPublishersPage(params: PageParams & { verified?: boolean } = {}): Promise<PublisherPage> {
    const { verified, ...page } = params;
    return this.call<PublisherPage>('adminListPublishers', {
      query: { ...page, verified: verified === undefined ? undefined : String(verified) },
    });
  }

  async setPublisher(name: string, input: { verified: boolean; note?: string }): Promise<Publisher> {
    return (await this.call<{ publisher: Publisher }>('adminSetPublisher', { params: { name }, body: input }))
      .publisher;
  }

  listReportsPage(params: PageParams & { status?: ReportStatus } = {}): Promise<ReportPage> {
    return this.call<ReportPage>('adminListReports', { query: { ...params } });
  }

  /** Handling is final: a handled report is ApiError 409. */
  async resolveReport(id: string, note: string): Promise<Report> {
    return (await this.call<{ report: Report }>('adminResolveReport', { params: { id }, body: { note } })).report;
  }

  async dismissReport(id: string, note: string): Promise<Report> {
    return (await this.call<{ report: Report }>('adminDismissReport', { params: { id }, body: { note } })).report;
  }

  async listScanners(): Promise<Scanner[]> {
    return (await this.call<{ scanners: Scanner[] }>('adminListScanners', {})).scanners;
  }

  /** A new scanner credential; keep `token`, it is not shown again. */
  createScanner(name: string): Promise<IssuedScanner> {
    return this.call<IssuedScanner>('adminCreateScanner', { body: { name } });
  }

  async revokeScanner(id: string): Promise<Scanner> {
    return (await this.call<{ scanner: Scanner }>('adminRevokeScanner', { params: { id } })).scanner;
  }

  /**
   * Any admin operation by its name in ADMIN_OPERATIONS, resolved to the
   * answer's `data` as the server sent it (what the admin CLI prints); the
   * typed methods are the way for everything else.
   */
  async send<T = unknown>(name: AdminOperationName, call: Call = {}): Promise<T> {
    return (await this.http.sendTo<T>(ADMIN_OPERATIONS[name], call)).data;
  }

  protected call<T>(name: AdminOperationName, call: Call): Promise<T> {
    return this.send<T>(name, call);
  }
}
