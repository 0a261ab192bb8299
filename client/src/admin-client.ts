/**
 * The operator's side of docs/trust.md: releases, verdict overrides,
 * publishers, the reports queue and scanner credentials, and API keys
 * issued for any account (docs/gateway.md), with the admin
 * token. Its table of operations is checked against the OpenAPI document
 * (gateway/test/openapi-client.test.ts) like the public one.
 */
import { Transport, type Call } from './transport';
import type { AdminCreateApiKeyInput, NewApiKey } from './session-types';
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

export const ADMIN_OPERATIONS = {
  adminPublishRelease: { method: 'POST', path: '/admin/v1/skills/{slug}/versions' },
  adminYankRelease: { method: 'POST', path: '/admin/v1/skills/{slug}/versions/{version}:yank' },
  adminUnyankRelease: { method: 'POST', path: '/admin/v1/skills/{slug}/versions/{version}:unyank' },
  adminOverrideVerdict: { method: 'PUT', path: '/admin/v1/skills/{slug}/versions/{version}/override' },
  adminClearVerdictOverride: { method: 'DELETE', path: '/admin/v1/skills/{slug}/versions/{version}/override' },
  adminListPublishers: { method: 'GET', path: '/admin/v1/publishers' },
  adminSetPublisher: { method: 'PUT', path: '/admin/v1/publishers/{name}' },
  adminListReports: { method: 'GET', path: '/admin/v1/reports' },
  adminResolveReport: { method: 'POST', path: '/admin/v1/reports/{id}:resolve' },
  adminDismissReport: { method: 'POST', path: '/admin/v1/reports/{id}:dismiss' },
  adminListScanners: { method: 'GET', path: '/admin/v1/scanners' },
  adminCreateScanner: { method: 'POST', path: '/admin/v1/scanners' },
  adminRevokeScanner: { method: 'DELETE', path: '/admin/v1/scanners/{id}' },
  adminCreateApiKey: { method: 'POST', path: '/admin/v1/accounts/{id}/api-keys' },
} as const satisfies Record<string, { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string }>;

export type AdminOperationName = keyof typeof ADMIN_OPERATIONS;

export interface SkillsAdminClientOptions {
  baseUrl: string;
  /** the operator's ADMIN_TOKEN, sent as `Authorization: Bearer` */
  adminToken: string;
  language?: 'en' | 'fr';
  fetch?: typeof fetch;
}

export class SkillsAdminClient {
  private readonly http: Transport;

  constructor(options: SkillsAdminClientOptions) {
    this.http = new Transport({ baseUrl: options.baseUrl, credentials: { apiKey: options.adminToken }, language: options.language, fetch: options.fetch });
  }

  /** Publishes a release; the same version with the same digest answers it again, another digest is ApiError 409. */
  async publishRelease(slug: string, input: PublishReleaseInput): Promise<ReleaseDetail> {
    return (await this.call<{ release: ReleaseDetail }>('adminPublishRelease', { params: { slug }, body: input })).release;
  }

  async yankRelease(slug: string, version: string, reason: string): Promise<ReleaseDetail> {
    return (await this.call<{ release: ReleaseDetail }>('adminYankRelease', { params: { slug, version }, body: { reason } })).release;
  }

  async unyankRelease(slug: string, version: string): Promise<ReleaseDetail> {
    return (await this.call<{ release: ReleaseDetail }>('adminUnyankRelease', { params: { slug, version } })).release;
  }

  async overrideVerdict(slug: string, version: string, verdict: Judgement, note: string): Promise<ReleaseDetail> {
    return (await this.call<{ release: ReleaseDetail }>('adminOverrideVerdict', { params: { slug, version }, body: { verdict, note } })).release;
  }

  async clearVerdictOverride(slug: string, version: string): Promise<ReleaseDetail> {
    return (await this.call<{ release: ReleaseDetail }>('adminClearVerdictOverride', { params: { slug, version } })).release;
  }

  listPublishersPage(params: PageParams & { verified?: boolean } = {}): Promise<PublisherPage> {
    const { verified, ...page } = params;
    return this.call<PublisherPage>('adminListPublishers', { query: { ...page, verified: verified === undefined ? undefined : String(verified) } });
  }

  async setPublisher(name: string, input: { verified: boolean; note?: string }): Promise<Publisher> {
    return (await this.call<{ publisher: Publisher }>('adminSetPublisher', { params: { name }, body: input })).publisher;
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

  /** A key for any account, its secret (`key`) shown this once; an end outside the bounds is ApiError 400. */
  async createApiKey(accountId: string, input: AdminCreateApiKeyInput = {}): Promise<NewApiKey> {
    return (await this.call<{ apiKey: NewApiKey }>('adminCreateApiKey', { params: { id: accountId }, body: input })).apiKey;
  }

  private async call<T>(name: AdminOperationName, call: Call): Promise<T> {
    return (await this.http.sendTo<T>(ADMIN_OPERATIONS[name], call)).data;
  }
}
