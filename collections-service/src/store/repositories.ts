import { StatisticsRefresh, type Logger } from '@skills/common';
import type { Sequelize, Transaction } from 'sequelize';
import type { CollectionsStore, Repositories } from '../domain/ports';
import { SqlCollectionRepository } from './collection.repository';
import { SqlIdempotencyRepository } from './idempotency.repository';
import { SqlInvitationRepository } from './invitation.repository';
import { SqlItemRepository } from './item.repository';
import { SqlOutboxWriter } from './outbox.writer';
import { SqlWorkspacePolicyRepository } from './policy.repository';
import { SqlPublisherRepository } from './publisher.repository';
import { SqlReleaseRepository } from './release.repository';
import { SqlReportRepository } from './report.repository';
import { Sql } from './sql';
import { SqlVerdictRepository } from './verdict.repository';
import { SqlWorkspaceEventStore } from './workspace-event.repository';
import { SqlWorkspaceRepository } from './workspace.repository';

/** The repositories on one connection or transaction (also the webhook readers' transaction). */
export function repositories(sql: Sql): Repositories {
  return {
    items: new SqlItemRepository(sql),
    releases: new SqlReleaseRepository(sql),
    verdicts: new SqlVerdictRepository(sql),
    publishers: new SqlPublisherRepository(sql),
    outbox: new SqlOutboxWriter(sql),
    collections: new SqlCollectionRepository(sql),
    workspaces: new SqlWorkspaceRepository(sql),
    invitations: new SqlInvitationRepository(sql),
    idempotency: new SqlIdempotencyRepository(sql),
    reports: new SqlReportRepository(sql),
    policies: new SqlWorkspacePolicyRepository(sql),
    workspaceEvents: new SqlWorkspaceEventStore(sql),
  };
}

/** The Postgres side of CollectionsStore: repositories bound to the pool or to one transaction. */
export class SequelizeStore implements CollectionsStore {
  readonly repos: Repositories;
  readonly statistics: StatisticsRefresh;

  constructor(
    private readonly sequelize: Sequelize,
    logger: Logger,
  ) {
    this.repos = repositories(new Sql(sequelize));
    // the keyset reads of the changes feed, the outbox relay and the outbox's readers walk these columns
    // in order; the readers also filter on the topic, which unsampled reads as matching 0.5 % of the rows
    // (Postgres's default equality selectivity), and a read was then planned as a sort of every later row
    this.statistics = new StatisticsRefresh({
      sequelize,
      logger,
      tables: [
        { name: 'collections.items', columns: ['id', 'slug', 'visibility', 'written_xid'] },
        { name: 'collections.outbox', columns: ['id', 'txid', 'topic', 'published_at'] },
      ],
    });
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
