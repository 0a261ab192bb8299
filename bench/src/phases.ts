/** The measured request mixes: baseline, search direct, search via gateway, collection read and PATCH. */
import { PrincipalSigner, PRINCIPAL_HEADER, type Principal } from '@skills/common';
import { catalogItem, searchMix } from './catalog-generator';
import type { Phase } from './load';
import type { BenchUser } from './setup';

function cycle<T>(list: readonly T[]): () => T {
  let i = 0;
  return () => list[i++ % list.length] as T;
}

export function baselinePhase(url: string): Phase {
  return { scenario: 'baseline', url, requests: [{ setup: () => ({ method: 'GET', path: '/api/v1/skills?q=x', headers: {} }) }] };
}

/** catalog-service itself: a freshly signed principal per request (each jti is accepted once). */
export function searchDirectPhase(url: string, secret: string, users: readonly BenchUser[], mixSize: number): Phase {
  const signer = new PrincipalSigner({ secret });
  const nextPath = cycle(searchMix(mixSize));
  const nextUser = cycle(users);
  return {
    scenario: 'search direct',
    url,
    requests: [
      {
        setup: () => {
          const path = nextPath();
          const user = nextUser();
          const principal: Principal = { kind: 'account', accountId: user.accountId, plan: 'pro', keyId: 'bench' };
          return { method: 'GET', path, headers: { [PRINCIPAL_HEADER]: signer.sign(principal, 'GET', path) } };
        },
      },
    ],
  };
}

export function searchGatewayPhase(url: string, users: readonly BenchUser[], mixSize: number): Phase {
  const nextPath = cycle(searchMix(mixSize));
  const nextUser = cycle(users);
  return {
    scenario: 'search via gateway',
    url,
    requests: [{ setup: () => ({ method: 'GET', path: nextPath(), headers: { authorization: `Bearer ${nextUser().apiKey}` } }) }],
  };
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
          return { method: 'GET', path: `/api/v1/me/collections/${slot.collectionId}`, headers: { authorization: `Bearer ${slot.user.apiKey}` } };
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
export function collectionPatchPhase(url: string, users: readonly BenchUser[], items: number): Phase {
  const free = slotsOf(users);
  const held = new Map<number, Slot>();
  let ticket = 0;
  let n = 0;
  const activeSlug = (): string => {
    for (;;) {
      const item = catalogItem(n++ % items);
      if (item.status === 'active') return item.slug;
    }
  };
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
