/**
 * The gateway's own calls to collections-service, for the routes it serves
 * itself (workspace members with their names, invitations): signed for the
 * caller like a proxied request, JSON in and out. A refusal of the service
 * comes back as its answer, which the route relays as it is (already in
 * the caller's language), the way a proxied answer would be.
 */
import { EMPTY_BODY, bodyDigest, type Principal, type PrincipalSigner } from '@skills/common';
import { signable } from '../domain/key-authenticator';
import type { UpstreamName } from './route-table';
import type { Upstream, UpstreamCall } from './upstream-proxy';

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

export class CollectionsCalls {
  constructor(private readonly deps: { upstreams: Record<UpstreamName, Upstream>; signer: PrincipalSigner }) {}

  /** The `data` of a 2xx answer, or the answer itself. */
  async call<T>(caller: Caller, method: UpstreamCall['method'], path: string, body?: object): Promise<Outcome<T>> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const signed = text === undefined ? EMPTY_BODY : bodyDigest(text);
    const principal = this.deps.signer.sign(signable(caller.principal), 'collections-service', method, path, signed);
    const answer = await this.deps.upstreams.collections.call({ method, path, principal, requestId: caller.requestId, language: caller.language, body: text });
    if (answer.status < 200 || answer.status > 299) return { ok: false, answer };
    return { ok: true, value: (answer.body as { data: T }).data };
  }
}

/** `/api/v1/workspaces/{id}…` with each id percent-encoded as one segment. */
export function workspacePath(workspaceId: string, ...rest: string[]): string {
  return ['/api/v1/workspaces', workspaceId, ...rest].map((s, i) => (i === 0 ? s : encodeURIComponent(s))).join('/');
}
