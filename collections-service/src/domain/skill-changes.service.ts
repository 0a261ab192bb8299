/**
 * The changes feed for mirrors: public items in the order their last writes
 * became safe to read (docs/api.md, "Changes feed"). A client that follows
 * it from the start holds exactly the active public catalog: the feed gives
 * each item's latest state, not its history.
 */
import { InputError } from '@skills/common';
import type { ItemRecord, ReleaseRecord } from './model';
import type { ChangePosition, CollectionsStore } from './ports';
import { ReleaseService } from './release.service';

/** Before every write. */
export const FEED_START: ChangePosition = { xid: '0', id: '00000000-0000-0000-0000-000000000000' };

const CURSOR_VERSION = 'c1';
/** xid8 is an unsigned 64-bit integer: a larger position is not one this feed gave out (and Postgres would refuse the cast). */
const MAX_XID = 2n ** 64n - 1n;
const POSITION = /^c1\.(\d{1,20})\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** Opaque to clients: a versioned position, so its form can change without breaking cursors in hand. */
export function encodeCursor(position: ChangePosition): string {
  return Buffer.from(`${CURSOR_VERSION}.${position.xid}.${position.id}`).toString('base64url');
}

/** The position of a cursor this feed gave out; 400 naming `since` for anything else. */
export function decodeCursor(cursor: string): ChangePosition {
  const match = /^[A-Za-z0-9_-]{1,200}$/.test(cursor)
    ? POSITION.exec(Buffer.from(cursor, 'base64url').toString('latin1'))
    : null;
  if (!match || BigInt(match[1] as string) > MAX_XID) throw new InputError('validation.cursor', { field: 'since' });
  return { xid: match[1] as string, id: match[2] as string };
}

export interface ChangesPage {
  items: ItemRecord[];
  /** where the next call starts: after the last item here, or where this one started when there was none */
  next: ChangePosition;
  hasMore: boolean;
  /** each upserted item's releases, newest first, so a mirror keeps versions and verdicts */
  releases: Map<string, ReleaseRecord[]>;
}

export class SkillChangesService {
  private readonly releases: ReleaseService;

  constructor(private readonly store: CollectionsStore) {
    this.releases = new ReleaseService(store);
  }

  async after(position: ChangePosition, limit: number): Promise<ChangesPage> {
    const rows = await this.store.repos.items.changesAfter(position, limit + 1);
    const page = rows.slice(0, limit);
    const items = page.map((r) => r.item);
    const releases = await this.releases.releasesOf(
      items.filter((item) => item.status === 'active').map((item) => item.id),
    );
    return { items, next: page.at(-1)?.position ?? position, hasMore: rows.length > limit, releases };
  }
}
