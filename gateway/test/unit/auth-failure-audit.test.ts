import type { AuditEvent, AuditLog } from '../../src/domain/audit/audit';
import { AuthFailureAudit } from '../../src/domain/audit/auth-failure-audit';
import { silentLogger } from '@skills/common/testing';

function setup(maxAddresses = 1_000) {
  const written: AuditEvent[] = [];
  const audit: AuditLog = {
    append: async (event) => void written.push(event),
    list: async () => [],
    pruneOlderThan: async () => 0,
  };
  let now = Date.parse('2026-11-21T10:00:00.000Z');
  const sut = new AuthFailureAudit({ audit, logger: silentLogger(), flushMs: 10_000, maxAddresses, now: () => now });
  return { sut, written, advance: (ms: number) => (now += ms) };
}

describe('AuthFailureAudit', () => {
  it('writes one record per address and reason per flush, with the count, the first and last time and the first request id', async () => {
    const { sut, written, advance } = setup();
    sut.record('203.0.113.7', 'api_key', 'r1');
    advance(2_000);
    sut.record('203.0.113.7', 'api_key', 'r2');
    sut.record('203.0.113.7', 'admin_token', 'r3');
    sut.record('198.51.100.1', 'api_key', 'r4');
    await sut.flush();
    expect(written).toEqual([
      {
        action: 'auth.failure',
        actor: { kind: 'anonymous' },
        requestId: 'r1',
        clientAddress: '203.0.113.7',
        details: {
          reason: 'api_key',
          count: 2,
          firstAt: '2026-11-21T10:00:00.000Z',
          lastAt: '2026-11-21T10:00:02.000Z',
        },
      },
      expect.objectContaining({
        clientAddress: '203.0.113.7',
        details: expect.objectContaining({ reason: 'admin_token', count: 1 }),
      }),
      expect.objectContaining({ clientAddress: '198.51.100.1', requestId: 'r4' }),
    ]);
    await sut.flush();
    expect(written).toHaveLength(3);
  });

  it('counts addresses past its bound together under "*", so a spread-out flood stays a few records', async () => {
    const { sut, written } = setup(2);
    for (let i = 0; i < 1_000; i++) sut.record(`10.0.${i >> 8}.${i & 255}`, 'api_key', `r${i}`);
    await sut.flush();
    expect(written.map((e) => [e.clientAddress, e.details?.count])).toEqual([
      ['10.0.0.0', 1],
      ['10.0.0.1', 1],
      ['*', 998],
    ]);
  });
});
