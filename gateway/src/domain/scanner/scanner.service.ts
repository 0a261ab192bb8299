/**
 * Operators issue, list and revoke scanner credentials. Each change is
 * written with its audit record in one transaction; a revoke tells the
 * ScannerAuthenticator so it applies at once on this replica.
 */
import { NotFoundError, isUuid } from '@skills/common';
import { hashApiKey } from '../keys/api-key';
import type { AuditContext } from '../audit/audit';
import type { GatewayStore } from '../ports';
import { generateScannerToken, type ScannerSummary } from './scanner';
import type { ScannerAuthenticator } from './scanner-authenticator';

/** A new scanner with its token, shown once and never stored. */
export interface IssuedScanner {
  scanner: ScannerSummary;
  token: string;
}

export class ScannerService {
  constructor(private readonly deps: { store: GatewayStore; authenticator: ScannerAuthenticator }) {}

  issue(name: string, context: AuditContext): Promise<IssuedScanner> {
    return this.deps.store.transaction(async (repos) => {
      const token = generateScannerToken();
      const scanner = await repos.scanners.insert(name, hashApiKey(token));
      await repos.audit.append({ ...context, action: 'scanner.create', target: scanner.id, details: { name } });
      return { scanner, token };
    });
  }

  list(): Promise<ScannerSummary[]> {
    return this.deps.store.repos.scanners.list();
  }

  /** Idempotent: revoking a revoked scanner answers it as it is (and is recorded again). */
  async revoke(id: string, context: AuditContext): Promise<ScannerSummary> {
    const scanner = await this.deps.store.transaction(async (repos) => {
      const revoked = isUuid(id) ? await repos.scanners.revoke(id) : undefined;
      if (!revoked) throw new NotFoundError('scanner.notFound');
      await repos.audit.append({ ...context, action: 'scanner.revoke', target: id, details: { name: revoked.name } });
      return revoked;
    });
    this.deps.authenticator.forget(id);
    return scanner;
  }
}
