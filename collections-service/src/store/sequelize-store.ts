import type { Logger } from '@skills/common';
import type { Sequelize, Transaction } from 'sequelize';
import type { CollectionsStore, Repositories } from '../domain/ports';
import { SqlCollectionRepository } from './collection.repository';
import { SqlIdempotencyRepository } from './idempotency.repository';
import { SqlItemRepository } from './item.repository';
import { SqlOutboxWriter } from './outbox.writer';
import { Sql } from './sql';
import { TableStatistics } from './table-statistics';
import { SqlWorkspaceRepository } from './workspace.repository';

function repositories(sql: Sql): Repositories {
  return {
    items: new SqlItemRepository(sql),
    outbox: new SqlOutboxWriter(sql),
    collections: new SqlCollectionRepository(sql),
    workspaces: new SqlWorkspaceRepository(sql),
    idempotency: new SqlIdempotencyRepository(sql),
  };
}

/** The Postgres side of CollectionsStore: repositories bound to the pool or to one transaction. */
export class SequelizeStore implements CollectionsStore {
  readonly repos: Repositories;
  readonly statistics: TableStatistics;

  constructor(
    private readonly sequelize: Sequelize,
    logger: Logger,
  ) {
    this.repos = repositories(new Sql(sequelize));
    this.statistics = new TableStatistics(sequelize, logger);
  }

  wroteInBulk(rows: number): void {
    this.statistics.written(rows);
  }

  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.sequelize.transaction((t: Transaction) => work(repositories(new Sql(this.sequelize, t))));
  }

  async ping(): Promise<void> {
    await this.sequelize.query('SELECT 1');
  }
}
