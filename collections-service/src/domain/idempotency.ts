/**
 * Idempotent creates (Idempotency-Key): the first successful answer for an
 * account + route + key is stored in the transaction that creates, so it
 * exists exactly when the creation does. A retry with the same body gets that
 * answer again; with another body it is refused. A duplicate that arrives
 * while the first is still running waits for it: the claim is a unique-key
 * insert, which Postgres holds until the first transaction ends; it then
 * replays the stored answer (or, if the first failed, runs itself).
 * Error answers are not stored: they roll the claim back with the creation.
 */
import { ConflictError } from '@skills/common';
import type { Repositories } from './ports';

/** How long a key is remembered; older rows are purged lazily. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface IdempotencyRequest {
  accountId: string;
  /** method and concrete path, e.g. `POST /api/v1/workspaces/<id>/collections` */
  route: string;
  key: string;
  /** hash of the request body */
  requestHash: string;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

export type IdempotencyClaim =
  { kind: 'claimed' } | { kind: 'existing'; requestHash: string; response: StoredResponse | null };

export interface IdempotencyRepository {
  /**
   * Claims the key for this transaction (after dropping an expired row for
   * it and a bounded batch of other expired rows); when another request
   * holds it, waits for that one to end and returns what it stored.
   */
  claim(request: IdempotencyRequest, ttlMs: number): Promise<IdempotencyClaim>;
  /** stores the answer of the claimed key, in the same transaction */
  complete(request: IdempotencyRequest, response: StoredResponse): Promise<void>;
}

export interface Idempotent<T> {
  request: IdempotencyRequest;
  /** the answer to store and send, built from what was created */
  render(created: T): StoredResponse;
}

export interface IdempotentOutcome {
  response: StoredResponse;
  replayed: boolean;
}

/** Runs `create` inside the caller's transaction at most once per key. */
export async function runIdempotent<T>(
  repos: Repositories,
  idempotent: Idempotent<T>,
  create: () => Promise<T>,
): Promise<IdempotentOutcome> {
  const claim = await repos.idempotency.claim(idempotent.request, IDEMPOTENCY_TTL_MS);
  if (claim.kind === 'existing') {
    if (claim.requestHash !== idempotent.request.requestHash) throw new ConflictError('idempotency.mismatch');
    // Unreachable with a claim stored together with its answer; kept so a
    // row without one never replays an empty answer.
    if (!claim.response) throw new ConflictError('idempotency.inFlight');
    return { response: claim.response, replayed: true };
  }
  const response = idempotent.render(await create());
  await repos.idempotency.complete(idempotent.request, response);
  return { response, replayed: false };
}
