import type { Sequelize } from 'sequelize';
import type { GatewayRepositories, GatewayStore } from '../domain/ports';
import { SequelizeAccountRepository } from './account.repository';
import { SequelizeKeyRepository } from './api-key.repository';
import { SequelizeAuditLog } from './audit.repository';
import { SequelizeScannerRepository } from './scanner.repository';

/** The gateway schema's repositories over Sequelize (domain/ports.ts). */
export class SequelizeGatewayStore implements GatewayStore {
  readonly repos: GatewayRepositories;

  constructor(private readonly sequelize: Sequelize) {
    this.repos = {
      accounts: new SequelizeAccountRepository(sequelize),
      keys: new SequelizeKeyRepository(sequelize),
      audit: new SequelizeAuditLog(sequelize),
      scanners: new SequelizeScannerRepository(sequelize),
    };
  }

  transaction<T>(work: (repos: GatewayRepositories) => Promise<T>): Promise<T> {
    return this.sequelize.transaction((transaction) =>
      work({
        accounts: new SequelizeAccountRepository(this.sequelize, transaction),
        keys: new SequelizeKeyRepository(this.sequelize, transaction),
        audit: new SequelizeAuditLog(this.sequelize, transaction),
        scanners: new SequelizeScannerRepository(this.sequelize, transaction),
      }),
    );
  }
}
