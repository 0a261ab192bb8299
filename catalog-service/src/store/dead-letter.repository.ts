import { QueryTypes, type Sequelize } from 'sequelize';
import type { SkillChangeEvent } from '@skills/common';
import type { RejectedEvent, RejectedEventSink } from '../events/rejected-events';

/**
 * An event a consumer group gave up on, and why: one the engine kept
 * refusing (attempts > 0), or one refused before it reached the engine
 * because it breaks the event contract or is not JSON (attempts 0; `event`
 * is then what arrived, whatever it holds).
 */
export interface DeadLetter {
  id: string;
  group: string;
  event: unknown;
  reason: string;
  attempts: number;
  failedAt: string;
}

export interface NewDeadLetter {
  event: SkillChangeEvent;
  reason: string;
  attempts: number;
}

/** Where poison events are parked: `catalog.dead_letters` (migration 002). */
export interface DeadLetterRepository extends RejectedEventSink {
  add(group: string, letters: readonly NewDeadLetter[]): Promise<void>;
  count(group?: string): Promise<number>;
  /** in id order, after `afterId` (a cursor: the last id of the previous page) */
  list(group: string, limit?: number, afterId?: string): Promise<DeadLetter[]>;
  /** removes letters once replayed (or judged obsolete) */
  remove(ids: readonly string[]): Promise<number>;
}

interface Row {
  id: string;
  group_name: string;
  event: unknown;
  reason: string;
  attempts: number;
  failed_at: Date;
}

export class SequelizeDeadLetterRepository implements DeadLetterRepository {
  constructor(private readonly sequelize: Sequelize) {}

  async add(group: string, letters: readonly NewDeadLetter[]): Promise<void> {
    if (letters.length === 0) return;
    // One statement for the whole set: the letters land together or not at all.
    await this.sequelize.query(
      `INSERT INTO catalog.dead_letters (group_name, event_id, item_id, event, reason, attempts)
       SELECT $1, l->>'eventId', l->>'itemId', l->'event', l->>'reason', (l->>'attempts')::int
       FROM jsonb_array_elements($2::jsonb) AS l`,
      {
        bind: [
          group,
          JSON.stringify(
            letters.map((l) => ({
              eventId: l.event.eventId,
              itemId: l.event.itemId,
              event: l.event,
              reason: l.reason.slice(0, 2_000),
              attempts: l.attempts,
            })),
          ),
        ],
      },
    );
  }

  /** Events refused before they reached the engine: never attempted (attempts 0). */
  async reject(group: string, events: readonly RejectedEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.sequelize.query(
      `INSERT INTO catalog.dead_letters (group_name, event_id, item_id, event, reason, attempts)
       SELECT $1, l->>'eventId', l->>'itemId', coalesce(l->'payload', 'null'::jsonb), l->>'reason', 0
       FROM jsonb_array_elements($2::jsonb) AS l`,
      { bind: [group, JSON.stringify(events.map((e) => ({ ...e, reason: e.reason.slice(0, 2_000) })))] },
    );
  }

  async count(group?: string): Promise<number> {
    const [row] = await this.sequelize.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM catalog.dead_letters WHERE $1::text IS NULL OR group_name = $1',
      {
        type: QueryTypes.SELECT,
        bind: [group ?? null],
      },
    );
    return row?.n ?? 0;
  }

  async list(group: string, limit = 100, afterId = '0'): Promise<DeadLetter[]> {
    // ORDER BY names the column (d.id): sorted by the text alias, a page after "2" would repeat "10" to "19".
    const rows = await this.sequelize.query<Row>(
      `SELECT d.id::text AS id, group_name, event, reason, attempts, failed_at FROM catalog.dead_letters d
       WHERE group_name = $1 AND d.id > $3::bigint ORDER BY d.id LIMIT $2`,
      { type: QueryTypes.SELECT, bind: [group, limit, afterId] },
    );
    return rows.map((r) => ({
      id: r.id,
      group: r.group_name,
      event: r.event,
      reason: r.reason,
      attempts: r.attempts,
      failedAt: new Date(r.failed_at).toISOString(),
    }));
  }

  async remove(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const rows = await this.sequelize.query<{ id: string }>(
      'DELETE FROM catalog.dead_letters WHERE id = ANY($1::bigint[]) RETURNING id::text AS id',
      {
        type: QueryTypes.SELECT,
        bind: [ids],
      },
    );
    return rows.length;
  }
}
