/**
 * Reads the item event log (collections.outbox: the rows the Postgres event
 * log serves and the relay publishes to Kafka) and, for every item it names,
 * compares the verdicts of its releases with the team entries that pin them.
 * A verdict different from the one last announced to the workspace (at first
 * the entry's `pinned_verdict`) writes `release.verdict_changed` for the
 * workspace and `collection.drifted` for each collection whose pin now
 * differs from its acknowledged verdict. The announced verdict is saved with
 * them, so a replayed item event finds nothing new to write.
 */
import { randomUUID } from 'node:crypto';
import { SKILL_CHANGES_TOPIC } from '@skills/common';
import type { Sql } from '../store/sql';
import { committedAfter, type LogRow, type OrderedLog } from './ordered-log';

interface ItemEventRow extends LogRow {
  item_id: string;
}

interface PinRow {
  workspace_id: string;
  collection_id: string;
  collection_name: string;
  item_id: string;
  slug: string;
  version: string;
  pinned_verdict: string | null;
  verdict: string;
  seen: string | null;
}

const PINS_OF_ITEMS = `
  SELECT c.workspace_id, c.id AS collection_id, c.name AS collection_name, e.item_id, i.slug,
         e.pinned_version AS version, e.pinned_verdict, r.verdict, s.verdict AS seen
  FROM collections.collection_entries e
  JOIN collections.collections c ON c.id = e.collection_id AND c.workspace_id IS NOT NULL
  JOIN collections.items i ON i.id = e.item_id
  JOIN collections.releases r ON r.item_id = e.item_id AND r.version = e.pinned_version
  LEFT JOIN collections.webhook_verdicts_seen s
    ON s.workspace_id = c.workspace_id AND s.item_id = e.item_id AND s.version = e.pinned_version
  WHERE e.item_id = ANY ($1::uuid[])
  ORDER BY c.workspace_id, e.item_id, e.pinned_version, c.id`;

function groupedByRelease(pins: PinRow[]): PinRow[][] {
  const groups = new Map<string, PinRow[]>();
  for (const pin of pins) {
    const key = `${pin.workspace_id}/${pin.item_id}/${pin.version}`;
    groups.set(key, [...(groups.get(key) ?? []), pin]);
  }
  return [...groups.values()];
}

async function writeEvent(sql: Sql, workspaceId: string, type: string, data: object): Promise<void> {
  await sql.run('INSERT INTO collections.workspace_events (id, workspace_id, type, data) VALUES ($1, $2, $3, $4::jsonb)', [
    randomUUID(),
    workspaceId,
    type,
    JSON.stringify(data),
  ]);
}

/** Announces one pinned release of one workspace if its verdict moved since it was last announced. */
async function announce(sql: Sql, pins: PinRow[]): Promise<void> {
  const [first] = pins;
  if (!first) return;
  const to = first.verdict;
  const from = first.seen ?? pins.find((p) => p.pinned_verdict !== null && p.pinned_verdict !== to)?.pinned_verdict;
  if (!from || from === to) return;
  await sql.run(
    `INSERT INTO collections.webhook_verdicts_seen (workspace_id, item_id, version, verdict) VALUES ($1, $2, $3, $4)
     ON CONFLICT (workspace_id, item_id, version) DO UPDATE SET verdict = EXCLUDED.verdict`,
    [first.workspace_id, first.item_id, first.version, to],
  );
  const collections = pins.map((p) => ({ id: p.collection_id, name: p.collection_name }));
  await writeEvent(sql, first.workspace_id, 'release.verdict_changed', { slug: first.slug, version: first.version, from, to, collections });
  for (const pin of pins) {
    if (pin.pinned_verdict === null || pin.pinned_verdict === to) continue;
    await writeEvent(sql, first.workspace_id, 'collection.drifted', {
      collection: { id: pin.collection_id, name: pin.collection_name },
      slug: pin.slug,
      version: pin.version,
      drift: [{ kind: 'verdict-changed', from: pin.pinned_verdict, to }],
    });
  }
}

async function compare(sql: Sql, rows: ItemEventRow[]): Promise<void> {
  const itemIds = [...new Set(rows.map((r) => r.item_id))];
  const pins = await sql.rows<PinRow>(PINS_OF_ITEMS, [itemIds]);
  for (const group of groupedByRelease(pins)) await announce(sql, group);
}

export const verdictWatch: OrderedLog<ItemEventRow> = {
  reader: 'webhook-verdict-watch',
  select: `SELECT o.key AS item_id, o.txid::text AS txid, o.id::text AS id FROM collections.outbox o
           WHERE o.topic = '${SKILL_CHANGES_TOPIC}' AND ${committedAfter('o.txid', 'o.id')}
           ORDER BY o.txid, o.id LIMIT $3`,
  handle: compare,
};
