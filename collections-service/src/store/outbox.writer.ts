import { SKILL_CHANGES_TOPIC, type CatalogItemState, type SkillChangeEvent } from '@skills/common';
import type { ItemRecord } from '../domain/model';
import type { OutboxWriter, SkillChangeType } from '../domain/ports';
import type { Sql } from './sql';

/**
 * The one writer of `collections.outbox`. Runs in the caller's transaction.
 * The event id is the outbox row id, known only once the sequence is drawn,
 * so the statement draws the ids itself and stamps them into the events:
 * one multi-row INSERT whatever the number of events.
 */
const INSERT_EVENTS = `
  INSERT INTO collections.outbox (id, topic, key, event)
  SELECT s.id, $1, s.event->>'itemId', s.event || jsonb_build_object('eventId', s.id::text)
  FROM (
    SELECT nextval('collections.outbox_id_seq') AS id, e.event
    FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(event, n)
    ORDER BY e.n
  ) AS s`;

function stateOf(item: ItemRecord): CatalogItemState {
  const { ownerAccountId: _owner, ...state } = item;
  return state;
}

export class SqlOutboxWriter implements OutboxWriter {
  constructor(private readonly sql: Sql) {}

  async append(type: SkillChangeType, items: readonly ItemRecord[]): Promise<void> {
    if (items.length === 0) return;
    const events: Omit<SkillChangeEvent, 'eventId'>[] = items.map((item) => ({
      type,
      itemId: item.id,
      version: item.version,
      occurredAt: item.updatedAt,
      item: stateOf(item),
    }));
    await this.sql.run(INSERT_EVENTS, [SKILL_CHANGES_TOPIC, JSON.stringify(events)]);
  }
}
