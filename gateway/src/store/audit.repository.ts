import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { AuditActor, AuditDetails, AuditEvent, AuditLog, AuditQuery, AuditRecord } from '../domain/audit/audit';

interface AuditRow {
  id: string;
  at: Date;
  actor_kind: AuditActor['kind'];
  actor_account_id: string | null;
  actor_scanner_id: string | null;
  action: AuditRecord['action'];
  target_account_id: string | null;
  target: string | null;
  request_id: string;
  client_address: string;
  details: AuditDetails;
}

function actorOf(row: AuditRow): AuditActor {
  if (row.actor_kind === 'account' && row.actor_account_id) return { kind: 'account', accountId: row.actor_account_id };
  if (row.actor_kind === 'scanner' && row.actor_scanner_id) return { kind: 'scanner', scannerId: row.actor_scanner_id };
  return row.actor_kind === 'admin' ? { kind: 'admin' } : { kind: 'anonymous' };
}

function toRecord(row: AuditRow): AuditRecord {
  return {
    id: String(row.id),
    at: new Date(row.at).toISOString(),
    action: row.action,
    actor: actorOf(row),
    targetAccountId: row.target_account_id,
    target: row.target,
    requestId: row.request_id,
    clientAddress: row.client_address,
    details: row.details ?? {},
  };
}

/** `gateway.audit_events` over Sequelize, on the pool or inside one transaction. */
export class SequelizeAuditLog implements AuditLog {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly transaction?: Transaction,
  ) {}

  async append(event: AuditEvent): Promise<void> {
    await this.sequelize.query(
      `INSERT INTO gateway.audit_events
         (actor_kind, actor_account_id, actor_scanner_id, action, target_account_id, target, request_id, client_address, details)
       VALUES (:actorKind, :actorAccountId, :actorScannerId, :action, :targetAccountId, :target, :requestId, :clientAddress, CAST(:details AS jsonb))`,
      {
        transaction: this.transaction,
        replacements: {
          actorKind: event.actor.kind,
          actorAccountId: event.actor.kind === 'account' ? event.actor.accountId : null,
          actorScannerId: event.actor.kind === 'scanner' ? event.actor.scannerId : null,
          action: event.action,
          targetAccountId: event.targetAccountId ?? null,
          target: event.target ?? null,
          requestId: event.requestId,
          clientAddress: event.clientAddress,
          details: JSON.stringify(event.details ?? {}),
        },
      },
    );
  }

  async list(query: AuditQuery): Promise<AuditRecord[]> {
    const where: string[] = [];
    if (query.action !== undefined) where.push('action = :action');
    if (query.accountId !== undefined) where.push('(actor_account_id = :accountId OR target_account_id = :accountId)');
    if (query.before !== undefined) where.push('id < CAST(:before AS bigint)');
    // ORDER BY names the column (e.id): a bare `id` is the text alias, which sorts "10" between "2" and "1".
    const rows = await this.sequelize.query<AuditRow>(
      `SELECT id::text AS id, at, actor_kind, actor_account_id, actor_scanner_id, action, target_account_id, target, request_id, client_address, details
         FROM gateway.audit_events e ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY e.id DESC LIMIT :limit`,
      {
        transaction: this.transaction,
        replacements: {
          action: query.action ?? null,
          accountId: query.accountId ?? null,
          before: query.before ?? null,
          limit: query.limit,
        },
        type: QueryTypes.SELECT,
      },
    );
    return rows.map(toRecord);
  }

  async pruneOlderThan(cutoff: Date, batch: number): Promise<number> {
    const rows = await this.sequelize.query<{ id: string }>(
      `DELETE FROM gateway.audit_events
        WHERE id IN (SELECT id FROM gateway.audit_events WHERE at < :cutoff ORDER BY id LIMIT :batch)
        RETURNING id`,
      { transaction: this.transaction, replacements: { cutoff, batch }, type: QueryTypes.SELECT },
    );
    return rows.length;
  }
}
