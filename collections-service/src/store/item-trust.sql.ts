/**
 * How an item's trust (common/src/events.ts ItemTrust) sits in
 * `collections.items`: `latest_version`, `verdict` and `blocked_reason` are
 * written with every change of its releases; `publisherVerified` is read
 * from `collections.publishers`, so verifying a publisher changes no item row
 * but its version. Shared by every query that shows an item and the outbox.
 */
import type { ItemTrust, Verdict } from '@skills/common';

/** The publisher's flag of the item whose `publisher` column is in scope (`alias.publisher`, or unqualified). */
function publisherVerified(alias: string): string {
  const a = alias ? `${alias}.` : '';
  return `coalesce((SELECT p.verified FROM collections.publishers p WHERE p.name = ${a}publisher), false)`;
}

/** Select list over `collections.items` aliased `alias` (none: unqualified, as in RETURNING). */
export function trustColumns(alias = ''): string {
  const a = alias ? `${alias}.` : '';
  return `${a}latest_version, ${a}verdict, ${a}blocked_reason, ${publisherVerified(alias)} AS publisher_verified`;
}

export interface TrustRow {
  latest_version: string | null;
  verdict: Verdict;
  blocked_reason: string | null;
  publisher_verified: boolean;
}

export function trustOfRow(row: TrustRow): ItemTrust {
  return {
    latestVersion: row.latest_version,
    verdict: row.verdict,
    publisherVerified: row.publisher_verified,
    blockedReason: row.blocked_reason,
  };
}

/** The same trust as a jsonb object, for events built in SQL (outbox.writer.ts). */
export function trustJsonb(alias: string): string {
  const a = `${alias}.`;
  return `jsonb_build_object('latestVersion', ${a}latest_version, 'verdict', ${a}verdict,
      'publisherVerified', ${publisherVerified(alias)}, 'blockedReason', ${a}blocked_reason)`;
}
