/**
 * Reads the item event log (collections.outbox: the rows the Postgres event
 * log serves and the relay publishes to Kafka) and, for every item it names,
 * compares the verdicts of its releases with the team entries that pin them.
 * A verdict different from the one last announced to the workspace (at first
 * the entry's `pinned_verdict`) writes `release.verdict_changed`; the
 * announced verdict is saved with it, so a replayed item event finds nothing
 * new to write. The same batch then announces the drift causes its team
 * entries gained as `collection.drifted` (drift-watch.ts).
 */
import { SKILL_CHANGES_TOPIC } from '@skills/common';
import type { Sql } from '../store/sql';
import { announceDrift } from './drift-watch';
import { committedAfter, type LogRow, type OrderedLog } from './ordered-log';
import { writeWorkspaceEvent } from './workspace-event.writer';

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
  await writeWorkspaceEvent(sql, first.workspace_id, 'release.verdict_changed', { slug: first.slug, version: first.version, from, to, collections });
}

async function compare(sql: Sql, rows: ItemEventRow[]): Promise<void> {
  const itemIds = [...new Set(rows.map((r) => r.item_id))];
  const pins = await sql.rows<PinRow>(PINS_OF_ITEMS, [itemIds]);
  for (const group of groupedByRelease(pins)) await announce(sql, group);
  await announceDrift(sql, itemIds);
}

export const verdictWatch: OrderedLog<ItemEventRow> = {
  reader: 'webhook-verdict-watch',
  select: `SELECT o.key AS item_id, o.txid::text AS txid, o.id::text AS id FROM collections.outbox o
           WHERE o.topic = '${SKILL_CHANGES_TOPIC}' AND ${committedAfter('o.txid', 'o.id')}
           ORDER BY o.txid, o.id LIMIT $3`,
  handle: compare,
};
