/**
 * What the typed-client suites share: the headers of a JSON answer, the ids
 * and times of their examples, and the values several answers hold.
 */
import type { Pagination, ReleaseSummary } from '@skills/client';

const answered = {
  'content-type': 'application/json',
  'x-request-id': 'r1',
  'ratelimit-limit': '600',
  'ratelimit-remaining': '9',
  'ratelimit-reset': '9',
  etag: '"e1"',
};
/** headers of a collection read; a search answer differs in its Cache-Control */
export const json = { ...answered, 'cache-control': 'private, no-cache' };
export const searchJson = { ...answered, 'cache-control': 'private, max-age=5' };
export const ID = '0b7e5d1c-3f4a-4c8e-9d2b-6a1f0e9c7b35';
export const NOW = '2026-11-21T09:30:00.000Z';
export const pagination: Required<Pagination> = { page: 1, limit: 20, total: 1, totalPages: 1, hasMore: false };
export const releaseSummary: Required<ReleaseSummary> = {
  version: '2.0.0-rc.1',
  publishedAt: NOW,
  digest: `sha256:${'ab'.repeat(32)}`,
  source: { repository: 'https://github.com/acme/x', ref: 'v2.0.0-rc.1' },
  yanked: { reason: 'broken build', at: NOW },
  verdict: 'suspicious',
};
