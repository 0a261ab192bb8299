import { RateLimitError, type MessageKey } from '@skills/common';

/**
 * Quotas the contract leaves open (docs/collections.md "Quotas"). They keep
 * one collection's answer and one owner's list bounded; going over is a 409
 * naming the quota.
 */
export const MAX_ENTRIES_PER_COLLECTION = 1000;
export const MAX_COLLECTIONS_PER_ACCOUNT = 100;
export const MAX_COLLECTIONS_PER_WORKSPACE = 500;

/**
 * Entries a collection shows in a list page (the first ones added); the
 * detail shows all. With at most 50 collections a page, this is what keeps
 * the bytes of any list page bounded (docs/collections.md).
 */
export const LIST_PREVIEW_ENTRIES = 5;

/** Workspaces an account may create and own (owners made by promotion do not count against the creator). */
export const MAX_WORKSPACES_OWNED = 20;
/** Invitations of one workspace waiting to be accepted (revoked, accepted and expired ones do not count). */
export const MAX_PENDING_INVITATIONS = 100;
/** Private skills an account holds. */
export const MAX_PRIVATE_SKILLS_PER_ACCOUNT = 500;
/** Webhook endpoints of one workspace: each is checked at registration and fed every subscribed event. */
export const MAX_WEBHOOKS_PER_WORKSPACE = 20;
/** Test deliveries one endpoint is sent in any minute: a test POSTs to a URL the caller chose, so it must not become a way to flood it. */
export const WEBHOOK_TESTS_PER_MINUTE = 5;

/** Rows of one subject inside a rate limit's window (reports of an account, tests of an endpoint), as the limit reads them. */
export interface RateWindow {
  /** rows made within the window */
  count: number;
  /**
   * Whole seconds (at least 1) until the window holds fewer than `limit`:
   * until the row `count - limit + 1` places from the oldest leaves it.
   * Only meaningful when `count >= limit`.
   */
  secondsUntilBelow: number;
}

/** 429 naming the limit and the wait (and Retry-After) once `window` holds `limit` rows. */
export function assertRoomIn(window: RateWindow, limit: number, messageKey: MessageKey): void {
  if (window.count < limit) return;
  const seconds = window.secondsUntilBelow;
  throw new RateLimitError(messageKey, seconds, { limit, seconds });
}
