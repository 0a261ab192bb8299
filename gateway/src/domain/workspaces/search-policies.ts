/**
 * The workspace policy a search applies (docs/governance.md "Policy for
 * every client"): the one the caller's key is bound to, or the one the
 * `workspace` parameter names. collections-service compiles it for the
 * caller and checks membership there; the gateway keeps each answer for at
 * most `ttlMs` per (workspace, account), and drops a workspace's copies when
 * its policy is replaced through this gateway.
 */
import { createHash } from 'node:crypto';
import { NotAllowedError, NotFoundError, UpstreamError, isUuid, type SearchPolicy } from '@skills/common';
import { KeyCache } from '../keys/key-cache';
import type { AccountPrincipal } from '../keys/key-authenticator';
import type { Caller, CollectionsCalls } from './collections-service';

/** The contract's bound: a policy change is seen by every replica's searches within 2 s. */
export const SEARCH_POLICY_TTL_MS = 2_000;

export interface SearchPoliciesOptions {
  calls: CollectionsCalls;
  /** how long a compiled policy is reused; at most SEARCH_POLICY_TTL_MS */
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

interface Cached {
  workspaceId: string;
  policy: SearchPolicy;
}

/** Who searches: an account (its key's binding, if any, on the principal). */
export interface SearchCaller extends Caller {
  principal: AccountPrincipal;
}

/** `/internal/v1/workspaces/{id}/search-policy`: a service route, never proxied (route-table.ts holds no /internal path). */
function policyPath(workspaceId: string): string {
  return `/internal/v1/workspaces/${encodeURIComponent(workspaceId)}/search-policy`;
}

/**
 * What names one policy in a shared cache: the workspace and a digest of
 * the compiled policy, so two policies (or one policy before and after a
 * change) never share an answer.
 */
export function policyCacheKey(policy: SearchPolicy): string {
  return `${policy.workspaceId}:${createHash('sha256').update(JSON.stringify(policy)).digest('base64url')}`;
}

export class SearchPolicies {
  private readonly cache: KeyCache<Cached>;
  /** moved by every forget: a read begun before it must not keep what it found */
  private generation = 0;

  constructor(private readonly options: SearchPoliciesOptions) {
    const ttlMs = Math.min(options.ttlMs ?? SEARCH_POLICY_TTL_MS, SEARCH_POLICY_TTL_MS);
    this.cache = new KeyCache({ ttlMs, maxEntries: options.maxEntries ?? 10_000, now: options.now });
  }

  /**
   * The policy a search of `caller` applies, or undefined when none does.
   * A bound key naming another workspace, or whose holder left the bound
   * workspace, is a 403; `workspace=` naming one the caller is not a member
   * of (or no workspace at all) is a 404.
   */
  async forSearch(caller: SearchCaller, requested: string | undefined): Promise<SearchPolicy | undefined> {
    const bound = caller.principal.workspaceId;
    const named = requested?.toLowerCase();
    if (bound !== undefined && named !== undefined && named !== bound)
      throw new NotAllowedError('apiKey.boundToOtherWorkspace');
    const workspaceId = bound ?? named;
    if (workspaceId === undefined) return undefined;
    if (!isUuid(workspaceId)) throw new NotFoundError('workspace.notFound');
    const id = `${workspaceId}:${caller.principal.accountId}`;
    const cached = this.cache.get(id);
    if (cached) return cached.policy;
    const startedAt = this.generation;
    const read = await this.options.calls.call<{ searchPolicy?: SearchPolicy }>(caller, 'GET', policyPath(workspaceId));
    if (!read.ok) throw refusal(read.answer.status, bound !== undefined);
    const policy = read.value?.searchPolicy;
    if (!policy || policy.workspaceId !== workspaceId) throw new UpstreamError(502, 'upstream.badGateway');
    if (this.generation === startedAt) this.cache.set(id, { workspaceId, policy });
    return policy;
  }

  /** The workspace's policy was replaced here: every search from now on reads the new one. */
  forget(workspaceId: string): void {
    this.generation += 1;
    const id = workspaceId.toLowerCase();
    this.cache.invalidate((entry) => entry.workspaceId === id);
  }
}

/**
 * collections-service answers 404 to a non-member. Through a bound key that
 * is a 403 (the key names the workspace; its holder is no longer in it);
 * through `workspace=` it stays a 404, as for a workspace that does not exist.
 */
function refusal(status: number, bound: boolean): Error {
  if (status === 404 || status === 403)
    return bound ? new NotAllowedError('workspace.noAccess') : new NotFoundError('workspace.notFound');
  return new UpstreamError(502, 'upstream.badGateway');
}
