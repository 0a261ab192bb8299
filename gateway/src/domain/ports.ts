/**
 * The seam between the gateway's rules and Postgres: the rules never see a
 * transaction object; `transaction` hands them repositories bound to one,
 * so a change and its audit record commit together or not at all.
 */
import type { AccountRepository, KeyRepository } from './accounts/account';
import type { AuditLog } from './audit/audit';
import type { ScannerRepository } from './scanner/scanner';

export interface GatewayRepositories {
  accounts: AccountRepository;
  keys: KeyRepository;
  audit: AuditLog;
  scanners: ScannerRepository;
}

export interface GatewayStore {
  /** repositories outside any transaction, for reads */
  readonly repos: GatewayRepositories;
  /** runs `work` in one transaction; a throw rolls everything back */
  transaction<T>(work: (repos: GatewayRepositories) => Promise<T>): Promise<T>;
}
