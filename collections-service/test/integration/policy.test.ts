/**
 * The workspace policy (docs/governance.md "Policy"): who reads and sets it,
 * each rule refusing an entry with 422 naming it, re-evaluation of every
 * entry after a change, hostile lists, the compiled form for search, and
 * the policy.changed event written with it.
 */
import { ADMIN, account, putSkill, startHarness, type Harness, START_TIMEOUT_MS } from '../support/harness';
import { collectionsOf, createTeam, putPolicy, teamCollection, type Team } from '../support/governance';
import { published, scan } from '../support/releases';

const DEFAULTS = {
  minimumVerdict: 'suspicious',
  verifiedPublishersOnly: false,
  allowedPublishers: null,
  allowedLicenses: null,
  allowedTypes: null,
  deniedSlugs: [],
};

describe('workspace policy', () => {
  let h: Harness;
  let t: Team;
  const policyUrl = () => `/api/v1/workspaces/${t.ws}/policy`;

  beforeAll(async () => {
    h = await startHarness();
    t = await createTeam(h);
    await putSkill(h, 'gpl-tool', { license: 'GPL-3.0', publisher: 'acme' });
    await putSkill(h, 'mit-tool', { license: 'MIT', publisher: 'acme' });
    await putSkill(h, 'plug', { type: 'plugin', license: 'MIT', publisher: 'acme' });
    await putSkill(h, 'shady', { license: 'MIT', publisher: 'acme' });
    await published(h, 'shady', '1.0.0');
    await scan(h, 'shady', '1.0.0', 'acme-scan', 'suspicious');
    await putSkill(h, 'stranger', { license: 'MIT', publisher: 'nobody' });
  }, START_TIMEOUT_MS);
  afterAll(() => h?.close());

  it('shows the defaults to every member before any is set, and 403 noAccess to a non-member', async () => {
    for (const who of [t.owner, t.admin, t.member, t.viewer]) {
      const res = await h.call(who, 'get', policyUrl());
      expect(res.body).toEqual({ data: { policy: DEFAULTS, updatedAt: null, updatedBy: null } });
    }
    expect((await h.call(account(), 'get', policyUrl())).status).toBe(403);
  });

  it('lets owners and admins replace it (absent fields default), and refuses members and viewers with 403', async () => {
    const res = await h.call(t.admin, 'put', policyUrl()).send({ allowedLicenses: ['MIT'] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      policy: { ...DEFAULTS, allowedLicenses: ['MIT'] },
      updatedAt: expect.any(String),
      updatedBy: t.admin.accountId,
    });
    for (const who of [t.member, t.viewer]) {
      const denied = await h.call(who, 'put', policyUrl()).send({});
      expect(denied.status).toBe(403);
    }
    expect((await putPolicy(h, t, {})).body.data.policy).toEqual(DEFAULTS);
  });

  it.each([
    [
      'minimumVerdict',
      { minimumVerdict: 'clean' },
      'shady',
      'The workspace policy refuses "shady": its verdict suspicious is worse than the minimum clean (rule minimumVerdict)',
      "La politique de l'espace de travail refuse « shady » : son verdict suspicious est pire que le minimum clean (règle minimumVerdict)",
    ],
    [
      'verifiedPublishersOnly',
      { verifiedPublishersOnly: true },
      'mit-tool',
      'The workspace policy refuses "mit-tool": its publisher acme is not verified (rule verifiedPublishersOnly)',
      "La politique de l'espace de travail refuse « mit-tool » : son éditeur acme n'est pas vérifié (règle verifiedPublishersOnly)",
    ],
    [
      'allowedPublishers',
      { allowedPublishers: ['acme'] },
      'stranger',
      'The workspace policy refuses "stranger": its publisher nobody is not allowed (rule allowedPublishers)',
      "La politique de l'espace de travail refuse « stranger » : son éditeur nobody n'est pas autorisé (règle allowedPublishers)",
    ],
    [
      'allowedLicenses',
      { allowedLicenses: ['mit'] },
      'gpl-tool',
      'The workspace policy refuses "gpl-tool": its licence GPL-3.0 is not allowed (rule allowedLicenses)',
      "La politique de l'espace de travail refuse « gpl-tool » : sa licence GPL-3.0 n'est pas autorisée (règle allowedLicenses)",
    ],
    [
      'allowedTypes',
      { allowedTypes: ['skill'] },
      'plug',
      'The workspace policy refuses "plug": its type plugin is not allowed (rule allowedTypes)',
      "La politique de l'espace de travail refuse « plug » : son type plugin n'est pas autorisé (règle allowedTypes)",
    ],
    [
      'deniedSlugs',
      { deniedSlugs: ['mit-tool'] },
      'mit-tool',
      'The workspace policy refuses "mit-tool": it is on the deny list (rule deniedSlugs)',
      "La politique de l'espace de travail refuse « mit-tool » : elle figure sur la liste des refus (règle deniedSlugs)",
    ],
  ])(
    'refuses an entry breaking %s with 422 in English and French, adding nothing',
    async (_rule, policy, slug, en, fr) => {
      expect((await putPolicy(h, t, policy)).status).toBe(200);
      const id = await teamCollection(h, t);
      const url = `${collectionsOf(t)}/${id}`;
      const res = await h.call(t.member, 'patch', url).send({ skillSlug: slug, name: 'renamed' });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: en });
      const inFrench = await h.call(t.member, 'patch', url).set('Accept-Language', 'fr').send({ skillSlug: slug });
      expect(inFrench.body).toEqual({ error: fr });
      const after = await h.call(t.member, 'get', url);
      expect(after.body.data.collection).toMatchObject({ name: 'Pinned', skillCount: 0 });
      // the licence compares case-insensitively: MIT passes a policy listing "mit"
      if (_rule === 'allowedLicenses')
        expect((await h.call(t.member, 'patch', url).send({ skillSlug: 'mit-tool' })).status).toBe(200);
    },
  );

  it('re-evaluates every entry when the policy changes, naming the first rule broken', async () => {
    await putPolicy(h, t, {});
    const id = await teamCollection(h, t, 'gpl-tool', 'mit-tool');
    const url = `${collectionsOf(t)}/${id}`;
    expect((await h.call(t.member, 'get', url)).body.data.collection.compliance).toEqual({
      complies: true,
      violationCount: 0,
    });
    await putPolicy(h, t, { allowedLicenses: ['MIT'], deniedSlugs: ['gpl-tool'] });
    const res = await h.call(t.viewer, 'get', url);
    const [gpl, mit] = res.body.data.collection.skills;
    expect(gpl.compliance).toEqual({
      complies: false,
      violations: [
        {
          rule: 'allowedLicenses',
          message: 'The workspace policy refuses "gpl-tool": its licence GPL-3.0 is not allowed (rule allowedLicenses)',
        },
        {
          rule: 'deniedSlugs',
          message: 'The workspace policy refuses "gpl-tool": it is on the deny list (rule deniedSlugs)',
        },
      ],
    });
    expect(mit.compliance).toEqual({ complies: true, violations: [] });
    expect(res.body.data.collection.compliance).toEqual({ complies: false, violationCount: 2 });
  });

  it('refuses huge lists, long values, duplicates, bad licences and unknown fields with 400, changing nothing', async () => {
    await putPolicy(h, t, { deniedSlugs: ['kept'] });
    const many = Array.from({ length: 201 }, (_, i) => `slug-${i}`);
    for (const body of [
      { deniedSlugs: many },
      { allowedPublishers: ['x'.repeat(215)] },
      { allowedLicenses: ['MIT', 'mit'] },
      { allowedLicenses: ['MIT OR Apache-2.0'] },
      { allowedTypes: ['widget'] },
      { minimumVerdict: 'malicious' },
      { verifiedPublishersOnly: 'yes' },
      { deniedSlugs: ['a'], extra: true },
    ]) {
      const res = await putPolicy(h, t, body);
      expect([res.status, body]).toEqual([400, body]);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
    expect((await h.call(t.member, 'get', policyUrl())).body.data.policy.deniedSlugs).toEqual(['kept']);
    expect((await putPolicy(h, t, { deniedSlugs: many.slice(0, 200) })).status).toBe(200);
  });

  it('writes policy.changed with every PUT, and none for a refused one', async () => {
    const count = async () =>
      (
        await h.rows<{ n: number }>(
          `SELECT count(*)::int AS n FROM collections.workspace_events WHERE workspace_id = $1 AND type = 'policy.changed'`,
          [t.ws],
        )
      )[0]?.n;
    const before = await count();
    await putPolicy(h, t, { minimumVerdict: 'unscanned' });
    await putPolicy(h, t, { deniedSlugs: 'x'.repeat(10) });
    await h.call(t.member, 'put', policyUrl()).send({});
    expect(await count()).toBe((before ?? 0) + 1);
    const [last] = await h.rows<{ data: unknown }>(
      `SELECT data FROM collections.workspace_events WHERE workspace_id = $1 ORDER BY seq DESC LIMIT 1`,
      [t.ws],
    );
    const data = typeof last?.data === 'string' ? JSON.parse(last.data) : last?.data;
    expect(data).toEqual({ policy: { ...DEFAULTS, minimumVerdict: 'unscanned' } });
  });

  it('compiles the policy for search, to members only (a non-member: 404)', async () => {
    await putPolicy(h, t, {
      minimumVerdict: 'unscanned',
      allowedLicenses: ['MIT', 'Apache-2.0'],
      allowedTypes: ['skill'],
    });
    const url = `/internal/v1/workspaces/${t.ws}/search-policy`;
    const res = await h.call(t.viewer, 'get', url);
    expect(res.body).toEqual({
      data: {
        searchPolicy: {
          workspaceId: t.ws,
          verdicts: ['clean', 'unscanned'],
          verifiedPublishersOnly: false,
          publishers: null,
          licenses: ['mit', 'apache-2.0'],
          types: ['skill'],
          deniedSlugs: [],
        },
      },
    });
    for (const who of [account(), ADMIN]) {
      const denied = await h.call(who, 'get', url);
      expect(denied.status).toBe(who === ADMIN ? 403 : 404);
    }
    expect((await h.call(account(), 'get', url)).body).toEqual({ error: 'Workspace not found' });
    await putPolicy(h, t, { minimumVerdict: 'clean' });
    expect((await h.call(t.member, 'get', url)).body.data.searchPolicy.verdicts).toEqual(['clean']);
    await putPolicy(h, t, {});
    expect((await h.call(t.member, 'get', url)).body.data.searchPolicy.verdicts).toEqual([
      'clean',
      'unscanned',
      'suspicious',
    ]);
  });
});
