/**
 * A scanner's client (docs/trust.md "Scanner credentials"): the one route its
 * `sks_` credential opens, recording a verdict on a release.
 */
import { SCANNER_OPERATIONS } from './admin-operations';
import type { VerdictInput } from './admin-types';
import { Transport } from './transport';
import type { ReleaseDetail } from './types';

export interface SkillsScannerClientOptions {
  baseUrl: string;
  /** the scanner credential (`sks_…`) an operator issued */
  scannerToken: string;
  fetch?: typeof fetch;
}

export class SkillsScannerClient {
  private readonly http: Transport;

  constructor(options: SkillsScannerClientOptions) {
    this.http = new Transport({
      baseUrl: options.baseUrl,
      credentials: { apiKey: options.scannerToken },
      fetch: options.fetch,
    });
  }

  /** The release with its verdict as it now is (the worst of each scanner's latest, unless overridden). */
  async recordVerdict(slug: string, version: string, input: VerdictInput): Promise<ReleaseDetail> {
    const operation = SCANNER_OPERATIONS.recordSkillVersionVerdict;
    return (await this.http.sendTo<{ release: ReleaseDetail }>(operation, { params: { slug, version }, body: input }))
      .data.release;
  }
}
