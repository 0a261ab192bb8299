import { SKILL_CHANGES_TOPIC } from '@skills/common';
import type { OutboxWriter, SkillChangeType } from '../domain/ports';
import { detailsJsonb } from './item-details.sql';
import { trustJsonb } from './item-trust.sql';
import type { Sql } from './sql';

/**
 * The one writer of `collections.outbox`, and the one place the
 * SkillChangeEvent (common/src/events.ts) is shaped. Runs in the caller's
 * transaction and reads the items' state as that transaction sees it, so an
 * event always carries what was committed with it.
 *
 * The event is built in SQL: the event id is the outbox row id, known only
 * once the sequence is drawn, and an import of 10,000 items would otherwise
 * ship every state to Node and back. One statement per call, whatever the
 * number of items. `updatedAt` uses the format of Date#toISOString.
 */
const INSERT_EVENTS = `
  INSERT INTO collections.outbox (id, topic, key, event)
  SELECT e.id, $1, e.item->>'id', jsonb_build_object(
    'eventId', e.id::text, 'type', $2::text, 'itemId', e.item->'id', 'version', e.item->'version',
    'occurredAt', e.item->'updatedAt', 'item', e.item)
  FROM (
    SELECT nextval('collections.outbox_id_seq') AS id, jsonb_build_object(
      'id', i.id, 'slug', i.slug, 'name', i.name, 'description', i.description, 'type', i.type,
      'category', i.category, 'tags', to_jsonb(i.tags), 'status', i.status, 'visibility', i.visibility,
      'updatedAt', to_char(i.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'version', i.version, 'details', ${detailsJsonb('i')}, 'trust', ${trustJsonb('i')}) AS item
    FROM collections.items i
    WHERE i.id = ANY($3::uuid[])
  ) AS e`;

export class SqlOutboxWriter implements OutboxWriter {
  constructor(private readonly sql: Sql) {}

  async append(type: SkillChangeType, itemIds: readonly string[]): Promise<void> {
    if (itemIds.length === 0) return;
    await this.sql.run(INSERT_EVENTS, [SKILL_CHANGES_TOPIC, type, itemIds]);
  }
}
