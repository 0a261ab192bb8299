// @store-specific the audit repository's reads and retention deletes
/** The audit trail: what is recorded, how it is read, that it holds no secret, and how long it is kept. */
import { QueryTypes, type Sequelize } from 'sequelize';
import { createSequelize } from '@skills/common';
import { AuditRetention } from '../../src/domain/audit/audit-retention';
import { SequelizeAuditLog } from '../../src/store/audit.repository';
import { ADMIN_TOKEN, startHarness, type Harness } from './harness';
import { eventually, silentLogger } from '@skills/common/testing';

interface Event {
  id: string;
  at: string;
  action: string;
  actor: { kind: string; accountId?: string };
  targetAccountId: string | null;
  target: string | null;
  requestId: string;
  clientAddress: string;
  details: Record<string, unknown>;
}

describe('the audit trail', () => {
  let h: Harness;
  /** a connection of the test's own to the gateway's database */
  let db: Sequelize;
  const sql = <T extends object>(text: string) => db.query<T>(text, { type: QueryTypes.SELECT });
  beforeAll(async () => {
    h = await startHarness();
    db = createSequelize({ url: h.db.url, poolMax: 1 });
  }, 90_000);
  afterAll(async () => {
    await db?.close();
    await h?.close();
  }, 30_000);

  const events = async (query = ''): Promise<{ events: Event[]; nextBefore: string | null }> =>
    (await h.admin('get', `/admin/v1/audit-events${query}`).expect(200)).body.data;

  it('records account creation, plan changes, key issuance and revocation with who, when and the request id', async () => {
    const created = await h
      .admin('post', '/admin/v1/accounts', { email: 'audited@example.com', plan: 'pro' })
      .set('X-Request-Id', 'req-create')
      .expect(201);
    const accountId = created.body.data.account.id as string;
    await h
      .admin('patch', `/admin/v1/accounts/${accountId}`, { plan: 'team' })
      .set('X-Request-Id', 'req-plan')
      .expect(200);
    const key = await h
      .admin('post', `/admin/v1/accounts/${accountId}/api-keys`, { name: 'ci' })
      .set('X-Request-Id', 'req-key')
      .expect(201);
    const keyId = key.body.data.apiKey.id as string;
    await h.admin('delete', `/admin/v1/api-keys/${keyId}`).set('X-Request-Id', 'req-revoke').expect(200);

    const { events: trail } = await events(`?accountId=${accountId}`);
    expect(trail.map((e) => [e.action, e.requestId])).toEqual([
      ['api_key.revoke', 'req-revoke'],
      ['api_key.issue', 'req-key'],
      ['account.plan_change', 'req-plan'],
      ['account.create', 'req-create'],
    ]);
    for (const e of trail) {
      expect(e).toMatchObject({
        actor: { kind: 'admin' },
        targetAccountId: accountId,
        clientAddress: expect.stringMatching(/127\.0\.0\.1/),
      });
      expect(Date.now() - Date.parse(e.at)).toBeLessThan(60_000);
    }
    expect(trail[2]?.details).toEqual({ from: 'pro', to: 'team' });
    expect(trail[1]).toMatchObject({ target: keyId, details: { prefix: key.body.data.apiKey.prefix, name: 'ci' } });
    expect(trail[0]?.target).toBe(keyId);
  });

  it('records proxied admin writes once the service answered, and role changes made with an API key', async () => {
    const { accountId, key } = await h.accountWithKey('team');
    await h.admin('put', `/admin/v1/workspaces/ws-1/members/${accountId}`, { role: 'viewer' }).expect(200);
    await h.admin('put', '/admin/v1/skills/audited-skill', { name: 'A', category: 'c' }).expect(200);
    await h.http.delete('/api/v1/workspaces/ws-1/members/me').set('Authorization', `Bearer ${key}`).expect(200);
    const { events: roles } = await events(`?accountId=${accountId}&limit=2`);
    expect(roles.map((e) => [e.action, e.actor.kind, e.target, e.details.role])).toEqual([
      ['workspace.member_remove', 'account', 'ws-1', undefined],
      ['workspace.member_set', 'admin', 'ws-1', 'viewer'],
    ]);
    expect(roles[0]?.actor.accountId).toBe(accountId);
    const { events: skills } = await events('?action=skill.put&limit=1');
    expect(skills[0]).toMatchObject({ action: 'skill.put', target: 'audited-skill', details: { status: 200 } });
  });

  it('does not record a write the service refused, nor one refused at the gateway', async () => {
    const before = (await events('?limit=1')).events[0]?.id;
    await h
      .admin('put', '/admin/v1/workspaces/ws-1/members/00000000-0000-0000-0000-000000000000', { role: 'viewer' })
      .expect(404);
    expect((await events('?limit=1')).events[0]?.id).toBe(before);
  });

  it('records failed authentications per address, counted, with the first request id', async () => {
    for (let i = 0; i < 3; i++) {
      await h.http
        .get('/api/v1/skills')
        .set('Authorization', 'Bearer sk_live_00000000000000000000000000000000')
        .set('X-Request-Id', `bad-key-${i}`)
        .expect(401);
    }
    await h.http.get('/admin/v1/audit-events').set('Authorization', 'Bearer wrong').expect(401);
    // a flush may fall between two of them: the records of one interval add up
    const keys = await eventually(async () => {
      const found = (await events('?action=auth.failure')).events;
      const byKey = found.filter((e) => e.details.reason === 'api_key');
      const counted = byKey.reduce((sum, e) => sum + Number(e.details.count), 0);
      return counted === 3 && found.some((e) => e.details.reason === 'admin_token') ? byKey : undefined;
    });
    expect(keys.every((e) => e.actor.kind === 'anonymous' && e.clientAddress.includes('127.0.0.1'))).toBe(true);
    // the oldest record names the first failed request
    expect(keys.at(-1)?.requestId).toBe('bad-key-0');
    expect(keys.length).toBeLessThanOrEqual(3);
  });

  it('pages newest first with before / nextBefore, and refuses a bad filter', async () => {
    const first = await events('?limit=2');
    expect(first.events).toHaveLength(2);
    expect(first.nextBefore).toBe(first.events[1]?.id);
    const second = await events(`?limit=2&before=${first.nextBefore}`);
    expect(BigInt(second.events[0]?.id ?? '0')).toBeLessThan(BigInt(first.nextBefore ?? '0'));
    // newest first by number, past id 10 too (sorted as text, "10" came between "2" and "1")
    const all = (await events('?limit=100')).events.map((e) => BigInt(e.id));
    expect(all.length).toBeGreaterThan(10);
    expect(all).toEqual([...all].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    await h.admin('get', '/admin/v1/audit-events?action=drop.table').expect(400);
    await h.admin('get', '/admin/v1/audit-events?before=1;DELETE').expect(400);
    await h.http.get('/admin/v1/audit-events').expect(401);
  });

  it('never holds a secret: no key, admin token or key hash anywhere in it', async () => {
    const { key, accountId } = await h.accountWithKey('pro');
    // the key's issuance is recorded: the search below runs over a trail that holds it
    const issued = await sql<{ n: string }>(
      `SELECT count(*)::text AS n FROM gateway.audit_events WHERE action = 'api_key.issue' AND target_account_id = '${accountId}'`,
    );
    expect(issued[0]?.n).toBe('1');
    const rows = await sql<{ all: string }>(
      `SELECT string_agg(row_to_json(a)::text, ' ') AS all FROM gateway.audit_events a`,
    );
    const hashes = await sql<{ hash: string }>(`SELECT encode(key_hash, 'hex') AS hash FROM gateway.api_keys`);
    const text = rows[0]?.all ?? '';
    for (const secret of [key, key.slice(12), ADMIN_TOKEN, ...hashes.map((r) => r.hash)])
      expect(text).not.toContain(secret);
  });

  it('writes a change and its record together: when the record cannot be written, the change does not happen', async () => {
    const { accountId } = await h.accountWithKey('pro');
    await db.query(
      `ALTER TABLE gateway.audit_events ADD CONSTRAINT audit_test_refuse CHECK (action <> 'account.plan_change') NOT VALID`,
    );
    try {
      await h.admin('patch', `/admin/v1/accounts/${accountId}`, { plan: 'team' }).expect(500);
    } finally {
      await db.query('ALTER TABLE gateway.audit_events DROP CONSTRAINT audit_test_refuse');
    }
    expect((await h.admin('get', `/admin/v1/accounts/${accountId}`).expect(200)).body.data.account.plan).toBe('pro');
  });

  it('deletes records older than the retention, and only those', async () => {
    const { accountId } = await h.accountWithKey('pro');
    await db.query(
      `UPDATE gateway.audit_events SET at = now() - interval '100 days' WHERE target_account_id = '${accountId}' AND action = 'account.create'`,
    );
    const retention = new AuditRetention({
      audit: new SequelizeAuditLog(db),
      logger: silentLogger('audit-test'),
      retentionDays: 90,
      intervalMs: 60_000,
      batchSize: 1,
    });
    expect(await retention.pruneOnce()).toBe(1);
    const left = (await events(`?accountId=${accountId}`)).events.map((e) => e.action);
    expect(left).toEqual(['api_key.issue']);
  });
});
