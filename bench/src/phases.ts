/** The measured request mixes: baseline, search direct and via the gateway, collection read and PATCH. */
import { PRINCIPAL_HEADER, type Principal, type PrincipalSigner } from '@skills/common';
import type { ImportLine } from './import-line';
import type { Phase } from './load';
import { CLASS_WEIGHTS, type SearchRequest } from './query-mix';
import type { BenchUser } from './setup';

function cycle<T>(list: readonly T[]): () => T {
  let i = 0;
  return () => list[i++ % list.length] as T;
}

export function baselinePhase(url: string): Phase {
  return {
    scenario: 'baseline',
    url,
    requests: [{ setup: () => ({ method: 'GET', path: '/api/v1/skills?q=x', headers: {} }) }],
  };
}

/** Where a search phase's requests come from: the long-tail mix (a fresh query each) or a fixed list cycled. */
export type SearchSource = () => SearchRequest;

// the intent mix's one class beside the long tail's
const SEARCH_CLASSES = [...CLASS_WEIGHTS.map(([cls]) => cls), 'intent' as const];

/** catalog-service itself: a freshly signed principal per request (each jti is accepted once). */
export function searchDirectPhase(
  scenario: string,
  url: string,
  signer: PrincipalSigner,
  users: readonly BenchUser[],
  next: SearchSource,
): Phase {
  const nextUser = cycle(users);
  return {
    scenario,
    url,
    classes: SEARCH_CLASSES,
    requests: [
      {
        setup: () => {
          const { cls, path } = next();
          const user = nextUser();
          const principal: Principal = { kind: 'account', accountId: user.accountId, plan: 'pro', keyId: 'bench' };
          return {
            method: 'GET',
            path,
            headers: { [PRINCIPAL_HEADER]: signer.sign(principal, 'catalog-service', 'GET', path) },
            tag: cls,
          };
        },
      },
    ],
  };
}

/** Through the gateway, as users search: the bench's API keys (pro accounts) in rotation. */
export function searchGatewayPhase(
  scenario: string,
  url: string,
  users: readonly BenchUser[],
  next: SearchSource,
): Phase {
  const nextUser = cycle(users);
  return {
    scenario,
    url,
    classes: SEARCH_CLASSES,
    requests: [
      {
        setup: () => {
          const { cls, path } = next();
          return { method: 'GET', path, headers: { authorization: `Bearer ${nextUser().apiKey}` }, tag: cls };
        },
      },
    ],
  };
}

/** A fixed list of requests, cycled: the search cache's best case. */
export function cycledSearches(requests: readonly SearchRequest[]): SearchSource {
  return cycle(requests);
}

interface Slot {
  user: BenchUser;
  collectionId: string;
}

function slotsOf(users: readonly BenchUser[]): Slot[] {
  return users.flatMap((user) => user.collectionIds.map((collectionId) => ({ user, collectionId })));
}

export function collectionReadPhase(url: string, users: readonly BenchUser[]): Phase {
  const nextSlot = cycle(slotsOf(users));
  return {
    scenario: 'collection read',
    url,
    requests: [
      {
        setup: () => {
          const slot = nextSlot();
          return {
            method: 'GET',
            path: `/api/v1/me/collections/${slot.collectionId}`,
            headers: { authorization: `Bearer ${slot.user.apiKey}` },
          };
        },
      },
    ],
  };
}

/**
 * Add then remove a skill, each connection on a collection of its own while
 * the pair is in flight (a slot is taken by the add and freed when the
 * remove answered), so the mix measures PATCH cost, not lock waits.
 */
export function collectionPatchPhase(url: string, users: readonly BenchUser[], catalog: readonly ImportLine[]): Phase {
  const free = slotsOf(users);
  const held = new Map<number, Slot>();
  let ticket = 0;
  // only active items can be added to a collection
  const activeSlug = cycle(catalog.filter((item) => item.status === 'active').map((item) => item.slug));
  const patch = (slot: Slot, body: unknown) => ({
    method: 'PATCH' as const,
    path: `/api/v1/me/collections/${slot.collectionId}`,
    headers: { authorization: `Bearer ${slot.user.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    scenario: 'collection PATCH',
    url,
    requests: [
      {
        setup: (context) => {
          const slot = free.shift() ?? slotsOf(users)[0];
          const id = ticket++;
          held.set(id, slot as Slot);
          context.ticket = id;
          context.slug = activeSlug();
          return patch(slot as Slot, { skillSlug: context.slug });
        },
      },
      {
        setup: (context) => patch(held.get(context.ticket as number) as Slot, { removeSkillSlug: context.slug }),
        onResponse: (_status, context) => {
          const slot = held.get(context.ticket as number);
          held.delete(context.ticket as number);
          if (slot) free.push(slot);
        },
      },
    ],
  };
}
