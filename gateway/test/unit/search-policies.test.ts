import type { SearchPolicy } from '@skills/common';
import type { Caller, CollectionsCalls, Outcome } from '../../src/domain/workspaces/collections-service';
import { SearchPolicies, policyCacheKey } from '../../src/domain/workspaces/search-policies';

const WS = '0b5c2f3e-1d4a-4c6b-9e8f-7a6b5c4d3e2f';
const policy = (licenses: string[]): SearchPolicy => ({
  workspaceId: WS,
  verdicts: ['clean'],
  verifiedPublishersOnly: false,
  publishers: null,
  licenses,
  types: null,
  deniedSlugs: [],
});

/** collections-service whose answers the test releases one by one. */
class HeldCalls implements CollectionsCalls {
  readonly pending: Array<(answer: Outcome<unknown>) => void> = [];
  asked = 0;
  call<T>(_caller: Caller, _method: string, _path: string): Promise<Outcome<T>> {
    this.asked += 1;
    return new Promise((resolve) => this.pending.push(resolve as (answer: Outcome<unknown>) => void));
  }
  answer(searchPolicy: SearchPolicy): void {
    this.pending.shift()?.({ ok: true, value: { searchPolicy } });
  }
}

describe('SearchPolicies', () => {
  const caller = {
    principal: { kind: 'account' as const, accountId: 'acc-1', plan: 'pro' as const, keyId: 'k1', workspaceId: WS },
    requestId: 'r1',
  };
  let now = 0;
  let calls: HeldCalls;
  let sut: SearchPolicies;

  beforeEach(() => {
    now = 0;
    calls = new HeldCalls();
    sut = new SearchPolicies({ calls, ttlMs: 60_000, now: () => now });
  });

  it('never keeps longer than 2 s, whatever it is configured with', async () => {
    const first = sut.forSearch(caller, undefined);
    calls.answer(policy(['mit']));
    await first;
    now += 2_000;
    const again = sut.forSearch(caller, undefined);
    calls.answer(policy(['mit']));
    await again;
    expect(calls.asked).toBe(2);
  });

  it('does not keep a policy read before a forget: the next search asks again and gets the new one', async () => {
    const before = sut.forSearch(caller, undefined);
    sut.forget(WS.toUpperCase());
    calls.answer(policy(['mit']));
    expect(await before).toEqual(policy(['mit']));
    const after = sut.forSearch(caller, undefined);
    calls.answer(policy(['gpl-3.0']));
    expect(await after).toEqual(policy(['gpl-3.0']));
    expect(calls.asked).toBe(2);
  });

  it('names two policies of one workspace apart in a shared cache', () => {
    expect(policyCacheKey(policy(['mit']))).not.toBe(policyCacheKey(policy(['gpl-3.0'])));
    expect(policyCacheKey(policy(['mit']))).toBe(policyCacheKey(policy(['mit'])));
  });
});
