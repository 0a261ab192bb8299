import { OverloadedError } from '@skills/common';
import { testPrincipalKeys } from '@skills/common/testing';
import { AdmissionGate } from '../../src/http/limits/admission';
import { SignedCollectionsCalls } from '../../src/http/workspaces/collections-calls';
import type { Upstream, UpstreamCall } from '../../src/http/proxy/upstream-proxy';

/** collections-service whose answers the test releases one by one. */
class HeldService {
  readonly pending: Array<() => void> = [];
  call(options: UpstreamCall): Promise<{ status: number; body: unknown }> {
    options.sign();
    return new Promise((resolve) => this.pending.push(() => resolve({ status: 200, body: { data: { ok: true } } })));
  }
}

describe("the gateway's own calls to collections-service", () => {
  const keys = testPrincipalKeys();
  const caller = {
    principal: { kind: 'account' as const, accountId: 'acc-1', plan: 'pro' as const, keyId: 'k1' },
    requestId: 'r1',
  };

  it('take a place of the service like a proxied request: one waits for it, the next is shed with 503 + Retry-After', async () => {
    const service = new HeldService();
    const calls = new SignedCollectionsCalls({
      upstreams: { collections: service as unknown as Upstream, catalog: service as unknown as Upstream },
      signer: keys.signer(),
      admission: new AdmissionGate({ reads: 1, writes: 1, maxWaitMs: 5_000 }),
    });
    const first = calls.call(caller, 'GET', '/api/v1/workspaces/w');
    const waiting = calls.call(caller, 'GET', '/api/v1/workspaces/w');
    const shed = calls.call(caller, 'GET', '/api/v1/workspaces/w');
    await expect(shed).rejects.toBeInstanceOf(OverloadedError);
    await expect(shed).rejects.toMatchObject({ headers: { 'Retry-After': '1' } });
    // a write has places of its own
    const write = calls.call(caller, 'POST', '/api/v1/workspaces/w/invitations', {});
    await new Promise((resolve) => setImmediate(resolve));
    // the first read and the write reached the service; the waiting read is neither sent nor signed
    expect(service.pending).toHaveLength(2);
    service.pending.shift()?.();
    await expect(first).resolves.toEqual({ ok: true, value: { ok: true } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(service.pending).toHaveLength(2);
    service.pending.splice(0).forEach((answer) => answer());
    await expect(waiting).resolves.toMatchObject({ ok: true });
    await expect(write).resolves.toMatchObject({ ok: true });
  });
});
