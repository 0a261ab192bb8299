// @store-specific concurrent reports and handlings: PGlite serializes them, the server races them
/** Reports of public items (docs/trust.md "Reports"): filing, the per-account limit, and the operators' queue. */
import { ADMIN, account, putSkill, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';

interface ReportBody {
  id: string;
  skill: { slug: string; name: string };
  reason: string;
  text: string;
  status: string;
  reporterAccountId: string;
  createdAt: string;
  handledAt: string | null;
  note: string | null;
}

const reportOf = (res: { body: { data: { report: ReportBody } } }): ReportBody => res.body.data.report;

async function storedReports(h: Harness, accountId: string): Promise<number> {
  const rows = await h.rows<{ n: number }>(
    'SELECT count(*)::int AS n FROM collections.reports WHERE reporter_account_id = $1',
    [accountId],
  );
  return rows[0]?.n ?? -1;
}

/** Reports filed `hoursAgo` before now by the database's clock, as if by the API then. */
async function backdate(h: Harness, accountId: string, slug: string, hoursAgo: number[]): Promise<void> {
  for (const hours of hoursAgo) {
    await h.rows(
      `INSERT INTO collections.reports (id, item_id, reporter_account_id, reason, created_at)
       SELECT gen_random_uuid(), id, $2, 'spam', now() - make_interval(secs => $3) FROM collections.items WHERE slug = $1`,
      [slug, accountId, hours * 3600],
    );
  }
}

describe('filing a report', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    await putSkill(h, 'pdf-tools', { name: 'PDF tools' });
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  it('answers 201 with the open report, about the item by slug and name', async () => {
    const ana = account();
    const res = await h
      .call(ana, 'post', '/api/v1/skills/pdf-tools/reports')
      .send({ reason: 'credential-theft', text: 'Reads ~/.aws/credentials' });
    expect(res.status).toBe(201);
    expect(reportOf(res)).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      skill: { slug: 'pdf-tools', name: 'PDF tools' },
      reason: 'credential-theft',
      text: 'Reads ~/.aws/credentials',
      status: 'open',
      reporterAccountId: ana.accountId,
      createdAt: expect.any(String),
      handledAt: null,
      note: null,
    });
    // text is optional; every reason of the list is taken
    for (const reason of ['malware', 'prompt-injection', 'impersonation', 'spam', 'broken', 'other']) {
      const more = await h.call(ana, 'post', '/api/v1/skills/pdf-tools/reports').send({ reason });
      expect([more.status, reportOf(more).reason, reportOf(more).text]).toEqual([201, reason, '']);
    }
    expect(await storedReports(h, ana.accountId)).toBe(7);
  });

  it('refuses a reason off the list, a text over 2,000 characters and unknown fields with 400, storing nothing', async () => {
    const bo = account();
    const post = (body: object, lang = 'en') =>
      h.call(bo, 'post', '/api/v1/skills/pdf-tools/reports').set('Accept-Language', lang).send(body);
    expect((await post({ reason: 'ugly' })).body).toEqual({
      error: '"reason" must be one of: malware, credential-theft, prompt-injection, impersonation, spam, broken, other',
    });
    expect((await post({ text: 'no reason' })).body).toEqual({ error: '"reason" is required' });
    expect((await post({ reason: 'spam', text: 'x'.repeat(2001) })).body).toEqual({
      error: '"text" must be at most 2000 characters long',
    });
    const french = await post({ reason: 'spam', text: 'x'.repeat(2001) }, 'fr');
    expect([french.status, french.body.error]).toEqual([400, expect.stringContaining('« text »')]);
    const extra = await post({ reason: 'spam', status: 'resolved' });
    expect(extra.status).toBe(400);
    expect(await storedReports(h, bo.accountId)).toBe(0);
    // the bound itself is allowed
    expect((await post({ reason: 'spam', text: 'x'.repeat(2000) })).status).toBe(201);
  });

  it('answers 404 for an unknown slug and for an item search does not show', async () => {
    const cy = account();
    await putSkill(h, 'draft-tool', { status: 'draft' });
    await putSkill(h, 'gone-tool');
    await h.call(ADMIN, 'delete', '/admin/v1/skills/gone-tool');
    for (const slug of ['no-such-skill', 'draft-tool', 'gone-tool']) {
      const res = await h.call(cy, 'post', `/api/v1/skills/${slug}/reports`).send({ reason: 'spam' });
      expect([res.status, res.body]).toEqual([404, { error: `Skill "${slug}" not found` }]);
    }
    expect(await storedReports(h, cy.accountId)).toBe(0);
  });

  it('is for accounts: an admin or scanner principal is refused with 403', async () => {
    const before = await h.rows<{ n: number }>('SELECT count(*)::int AS n FROM collections.reports');
    for (const principal of [
      ADMIN,
      { kind: 'scanner' as const, scannerId: 'a9c1d1f0-0000-4000-8000-000000000001', name: 'static' },
    ]) {
      const res = await h.call(principal, 'post', '/api/v1/skills/pdf-tools/reports').send({ reason: 'spam' });
      expect(res.status).toBe(403);
    }
    expect(await h.rows<{ n: number }>('SELECT count(*)::int AS n FROM collections.reports')).toEqual(before);
  });

  it('lets one account file 20 reports a day by default, even in a concurrent burst', async () => {
    const dee = account();
    const burst = await Promise.all(
      Array.from({ length: 25 }, () =>
        h.call(dee, 'post', '/api/v1/skills/pdf-tools/reports').send({ reason: 'spam' }),
      ),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(await storedReports(h, dee.accountId)).toBe(20);
    // another account has its own allowance
    expect((await h.call(account(), 'post', '/api/v1/skills/pdf-tools/reports').send({ reason: 'spam' })).status).toBe(
      201,
    );
  });
});

describe('the report limit per account', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ reportsPerAccountPerDay: 3 });
    await putSkill(h, 'pdf-tools');
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  it('counts the last 24 h and answers 429 with Retry-After until the oldest report in the window leaves it', async () => {
    const ana = account();
    // 25 h ago is outside the window; 23 h and 22 h ago are inside
    await backdate(h, ana.accountId, 'pdf-tools', [25, 23, 22]);
    expect((await h.call(ana, 'post', '/api/v1/skills/pdf-tools/reports').send({ reason: 'spam' })).status).toBe(201);
    const refused = await h.call(ana, 'post', '/api/v1/skills/pdf-tools/reports').send({ reason: 'spam' });
    expect(refused.status).toBe(429);
    // the report of 23 h ago leaves the window in an hour
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.body).toEqual({
      error: `Report limit reached: an account files at most 3 reports in 24 hours; retry in ${retryAfter} s`,
    });
    const french = await h
      .call(ana, 'post', '/api/v1/skills/pdf-tools/reports')
      .set('Accept-Language', 'fr')
      .send({ reason: 'spam' });
    expect(french.body.error).toMatch(
      /^Limite de signalements atteinte : un compte dépose au plus 3 signalements en 24 heures/,
    );
    expect(await storedReports(h, ana.accountId)).toBe(4);
  });

  it('frees a slot once a report is older than 24 h', async () => {
    const bo = account();
    await backdate(h, bo.accountId, 'pdf-tools', [24.01, 1, 1]);
    expect((await h.call(bo, 'post', '/api/v1/skills/pdf-tools/reports').send({ reason: 'spam' })).status).toBe(201);
    const refused = await h.call(bo, 'post', '/api/v1/skills/pdf-tools/reports').send({ reason: 'spam' });
    expect(refused.status).toBe(429);
    // the two reports of an hour ago leave in 23 h
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * 3600 - 100);
  });
});

describe("the operators' report queue", () => {
  let h: Harness;
  const ana = account();

  beforeAll(async () => {
    h = await startHarness();
    await putSkill(h, 'pdf-tools', { name: 'PDF tools' });
    await putSkill(h, 'mail-sender', { name: 'Mail sender' });
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  /** Files reports in order (each in its own transaction, so each is newer than the one before). */
  async function file(count: number, slug = 'pdf-tools'): Promise<ReportBody[]> {
    const filed: ReportBody[] = [];
    for (let i = 0; i < count; i += 1) {
      const res = await h
        .call(ana, 'post', `/api/v1/skills/${slug}/reports`)
        .send({ reason: 'malware', text: `report ${i}` });
      if (res.status !== 201) throw new Error(`report: ${res.status}`);
      filed.push(reportOf(res));
    }
    return filed;
  }

  const resolve = (id: string, body: object, action = 'resolve') =>
    h.call(ADMIN, 'post', `/admin/v1/reports/${id}:${action}`).send(body);

  it("lists reports newest first with the item's slug and name, by page and by status", async () => {
    await h.rows('DELETE FROM collections.reports');
    type Five = [ReportBody, ReportBody, ReportBody, ReportBody, ReportBody];
    const [r0, r1, r2, r3, r4] = [...(await file(2)), ...(await file(3, 'mail-sender'))] as Five;
    expect((await resolve(r1.id, { note: 'removed' })).status).toBe(200);
    expect((await resolve(r3.id, { note: 'not malware' }, 'dismiss')).status).toBe(200);

    const all = await h.call(ADMIN, 'get', '/admin/v1/reports');
    expect(all.status).toBe(200);
    expect(all.body.data.reports.map((r: ReportBody) => r.id)).toEqual([r4, r3, r2, r1, r0].map((r) => r.id));
    expect(all.body.data.reports[0].skill).toEqual({ slug: 'mail-sender', name: 'Mail sender' });
    expect(all.body.data.reports[4].skill).toEqual({ slug: 'pdf-tools', name: 'PDF tools' });
    expect(all.body.data.pagination).toEqual({ page: 1, limit: 20, total: 5, totalPages: 1, hasMore: false });

    const page2 = await h.call(ADMIN, 'get', '/admin/v1/reports?page=2&limit=2');
    expect(page2.body.data.reports.map((r: ReportBody) => r.id)).toEqual([r2.id, r1.id]);
    expect(page2.body.data.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3, hasMore: true });

    const open = await h.call(ADMIN, 'get', '/admin/v1/reports?status=open&limit=2');
    expect(open.body.data.reports.map((r: ReportBody) => r.id)).toEqual([r4.id, r2.id]);
    expect(open.body.data.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2, hasMore: true });
    const resolved = await h.call(ADMIN, 'get', '/admin/v1/reports?status=resolved');
    expect(resolved.body.data.reports).toEqual([
      expect.objectContaining({ id: r1.id, status: 'resolved', note: 'removed' }),
    ]);
    const dismissed = await h.call(ADMIN, 'get', '/admin/v1/reports?status=dismissed');
    expect(dismissed.body.data.reports).toEqual([
      expect.objectContaining({ id: r3.id, status: 'dismissed', note: 'not malware' }),
    ]);

    for (const query of ['status=closed', 'limit=51', 'page=0', 'sort=oldest']) {
      expect((await h.call(ADMIN, 'get', `/admin/v1/reports?${query}`)).status).toBe(400);
    }
  });

  it('resolves and dismisses an open report with a note; handling it again is 409', async () => {
    const [a, b] = (await file(2)) as [ReportBody, ReportBody];
    const resolved = await resolve(a.id, { note: '  Removed the skill  ' });
    expect(resolved.status).toBe(200);
    expect(reportOf(resolved)).toEqual({
      ...a,
      status: 'resolved',
      note: 'Removed the skill',
      handledAt: expect.any(String),
    });
    const dismissed = await resolve(b.id, { note: 'Works as documented' }, 'dismiss');
    expect(reportOf(dismissed)).toMatchObject({ id: b.id, status: 'dismissed', note: 'Works as documented' });

    const again = await resolve(a.id, { note: 'twice' }, 'dismiss');
    expect([again.status, again.body]).toEqual([
      409,
      { error: 'This report is already resolved; a handled report cannot be handled again' },
    ]);
    const againFr = await h
      .call(ADMIN, 'post', `/admin/v1/reports/${b.id}:resolve`)
      .set('Accept-Language', 'fr')
      .send({ note: 'x' });
    expect([againFr.status, againFr.body.error]).toEqual([
      409,
      expect.stringMatching(/^Ce signalement est déjà classé sans suite/),
    ]);
    // the first handling stands
    const stored = await h.rows<{ status: string; note: string }>(
      'SELECT status, note FROM collections.reports WHERE id = $1',
      [a.id],
    );
    expect(stored).toEqual([{ status: 'resolved', note: 'Removed the skill' }]);
  });

  it('lets only one of two concurrent handlings of a report win', async () => {
    const [c] = (await file(1)) as [ReportBody];
    const both = await Promise.all([resolve(c.id, { note: 'one' }), resolve(c.id, { note: 'two' }, 'dismiss')]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = both.find((r) => r.status === 200);
    const stored = await h.rows<{ status: string; note: string }>(
      'SELECT status, note FROM collections.reports WHERE id = $1',
      [c.id],
    );
    expect(stored).toEqual([{ status: winner?.body.data.report.status, note: winner?.body.data.report.note }]);
  });

  it('needs a note of 1 to 1,000 characters, and answers 404 for an unknown report', async () => {
    const [d] = (await file(1)) as [ReportBody];
    expect((await resolve(d.id, {})).body).toEqual({ error: '"note" is required' });
    expect((await resolve(d.id, { note: '   ' })).status).toBe(400);
    expect((await resolve(d.id, { note: 'x'.repeat(1001) })).body).toEqual({
      error: '"note" must be at most 1000 characters long',
    });
    expect((await resolve(d.id, { note: 'ok', status: 'resolved' })).status).toBe(400);
    expect(
      (await h.rows<{ status: string }>('SELECT status FROM collections.reports WHERE id = $1', [d.id]))[0]?.status,
    ).toBe('open');
    expect((await resolve(d.id, { note: 'x'.repeat(1000) })).status).toBe(200);

    for (const id of ['4f1c2a3b-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await resolve(id, { note: 'x' });
      expect([res.status, res.body]).toEqual([404, { error: 'Report not found' }]);
    }
    expect((await h.call(ADMIN, 'get', `/admin/v1/reports/${d.id}:resolve`)).status).toBe(405);
    expect((await h.call(ADMIN, 'post', `/admin/v1/reports/${d.id}:escalate`).send({ note: 'x' })).status).toBe(404);
  });

  it('refuses the admin routes to accounts and scanners with 403, changing nothing', async () => {
    const [e] = (await file(1)) as [ReportBody];
    const scanner = { kind: 'scanner' as const, scannerId: 'a9c1d1f0-0000-4000-8000-000000000001', name: 'static' };
    for (const principal of [ana, account(), scanner]) {
      const list = await h.call(principal, 'get', '/admin/v1/reports');
      expect([list.status, list.body]).toEqual([403, { error: 'Invalid admin token' }]);
      const handled = await h.call(principal, 'post', `/admin/v1/reports/${e.id}:resolve`).send({ note: 'mine' });
      expect([handled.status, handled.body]).toEqual([403, { error: 'Invalid admin token' }]);
    }
    expect(
      (await h.rows<{ status: string }>('SELECT status FROM collections.reports WHERE id = $1', [e.id]))[0]?.status,
    ).toBe('open');
  });
});
