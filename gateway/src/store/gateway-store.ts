import type { Sequelize } from 'sequelize';
import type { GatewayRepositories, GatewayStore } from '../domain/ports';
import { SequelizeAccountRepository } from './account.repository';
import { SequelizeKeyStore } from './api-key.store';
import { SequelizeAuditLog } from './audit.repository';
import { SequelizeScannerStore } from './scanner.store';

/** The gateway schema's repositories over Sequelize (domain/ports.ts). */
export class SequelizeGatewayStore implements GatewayStore {
  readonly repos: GatewayRepositories;

  constructor(private readonly sequelize: Sequelize) {
    this.repos = {
      accounts: new SequelizeAccountRepository(sequelize),
      keys: new SequelizeKeyStore(sequelize),
      audit: new SequelizeAuditLog(sequelize),
      scanners: new SequelizeScannerStore(sequelize),
    };
  }

  transaction<T>(work: (repos: GatewayRepositories) => Promise<T>): Promise<T> {
    return this.sequelize.transaction((transaction) =>
      work({
        accounts: new SequelizeAccountRepository(this.sequelize, transaction),
        keys: new SequelizeKeyStore(this.sequelize, transaction),
        audit: new SequelizeAuditLog(this.sequelize, transaction),
        scanners: new SequelizeScannerStore(this.sequelize, transaction),
      }),
    );
  }
}
