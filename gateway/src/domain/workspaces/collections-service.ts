/**
 * The port through which the gateway's own rules (workspace members with
 * their names, invitations, search policies) ask collections-service,
 * signed for the caller like a proxied request; http/workspaces/collections-calls.ts
 * makes the calls. A refusal of the service comes back as its answer, which
 * a route relays as it is (already in the caller's language).
 */
import type { Principal } from '@skills/common';

/** Who the gateway calls for: the principal it signs, and what the answer should be in. */
export interface Caller {
  principal: Principal;
  requestId: string;
  language?: string;
}

export interface Answer {
  status: number;
  body: unknown;
}

/** The value of a successful call, or the service's refusal to relay. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; answer: Answer };

export interface CollectionsCalls {
  /** The `data` of a 2xx answer, or the answer itself. */
  call<T>(caller: Caller, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: object): Promise<Outcome<T>>;
}

/** `/api/v1/workspaces/{id}…` with each id percent-encoded as one segment. */
export function workspacePath(workspaceId: string, ...rest: string[]): string {
  return ['/api/v1/workspaces', workspaceId, ...rest].map((s, i) => (i === 0 ? s : encodeURIComponent(s))).join('/');
}
