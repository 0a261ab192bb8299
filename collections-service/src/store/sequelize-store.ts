import type { Sequelize, Transaction } from 'sequelize';
import type { CollectionsStore, Repositories } from '../domain/ports';
import { SqlCollectionRepository } from './collection.repository';
import { SqlIdempotencyRepository } from './idempotency.repository';
import { SqlItemRepository } from './item.repository';
import { SqlOutboxWriter } from './outbox.writer';
import { Sql } from './sql';
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

  constructor(private readonly sequelize: Sequelize) {
    this.repos = repositories(new Sql(sequelize));
  }

  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.sequelize.transaction((t: Transaction) => work(repositories(new Sql(this.sequelize, t))));
  }

  async ping(): Promise<void> {
    await this.sequelize.query('SELECT 1');
  }
}
