/**
 * Who may read and change what, through the gateway of a real stack: every
 * endpoint × {owner, other account, non-member, viewer, member, admin}. The
 * expected status of each cell is the table below (docs/security.md "Who may do what"): another
 * account never sees a personal collection or private skill (404, existence
 * not revealed); a non-member of a workspace gets 403; roles gate team
 * writes. A refused write is checked to have changed nothing.
 *
 * Actors: "owner" owns the personal collection, the private skill and the
 * workspace W; "other" is an account that owns a workspace of its own;
 * "nonMember" belongs to no workspace; viewer/member/admin hold that role
 * in W. Every actor has a key on the team plan (every scope).
 */
import { newAccount, startStack, type ApiResponse, type Json, type Stack } from './helpers';

const ACTORS = ['owner', 'other', 'nonMember', 'viewer', 'member', 'admin'] as const;
type Actor = (typeof ACTORS)[number];

interface Fixture {
  /** the owner's personal collection */
  personal: string;
  /** a collection of the acting account itself */
  actorsOwn: string;
  /** a team collection of W created by the owner */
  team: string;
  /** a team collection of W created by the member */
  teamByMember: string;
}

interface Row {
  name: string;
  /** expected status per actor, in ACTORS order */
  expect: readonly [number, number, number, number, number, number];
  call(actor: Actor, f: Fixture): Promise<ApiResponse>;
  /** for writes: the owner's view of what the call may have changed, compared before/after a refusal */
  state?(f: Fixture): Promise<unknown>;
  /** what a successful answer must show (every row with an allowed cell has one: a test below says so) */
  check?(actor: Actor, r: ApiResponse, f: Fixture): void | Promise<void>;
}

let stack: Stack;
const keys = {} as Record<Actor, string>;
const ids = {} as Record<Actor, string>;
let workspace = '';
let privateSkill = '';
let cellsChecked = 0;
/** the targets the last fresh-member and fresh-invitation calls made, for the checks of their rows */
let lastMember = '';
let lastInvitation = '';

const as = (actor: Actor, method: string, path: string, json?: unknown) =>
  stack.client.call(method, path, { token: keys[actor], json });
const ws = (path = '') => `/api/v1/workspaces/${workspace}/collections${path}`;
const read = async (actor: Actor, path: string) => {
  const r = await as(actor, 'GET', path);
  return { status: r.status, body: r.body };
};
const gone = async (path: string) => expect((await as('owner', 'GET', path)).status).toBe(404);
const slugsOf = (r: ApiResponse): string[] => r.body.data.collection.skills.map((s: Json) => s.slug ?? s.id);
const membersOfW = async () =>
  (await as('owner', 'GET', `/api/v1/workspaces/${workspace}/members?limit=50`)).body.data.members as Json[];
const pendingInvitations = async () =>
  ((await as('owner', 'GET', `/api/v1/workspaces/${workspace}/invitations`)).body.data.invitations as Json[]).map(
    (i) => i.id,
  );

//                                                               owner other nonMember viewer member admin
const ROWS: readonly Row[] = [
  {
    name: 'GET /api/v1/skills',
    expect: [200, 200, 200, 200, 200, 200],
    call: (a) => as(a, 'GET', '/api/v1/skills?q=lint'),
    check: (_a, r) => {
      expect(r.body.data.pagination.total).toBeGreaterThan(0);
      expect(r.body.data.skills.every((s: Json) => /lint/i.test(`${s.name} ${s.description}`))).toBe(true);
    },
  },
  {
    name: "GET /api/v1/me/collections (owner's listed?)",
    expect: [200, 200, 200, 200, 200, 200],
    call: (a) => as(a, 'GET', '/api/v1/me/collections'),
    check: (a, r, f) => expect(r.body.data.collections.some((c: Json) => c.id === f.personal)).toBe(a === 'owner'),
  },
  {
    name: 'POST /api/v1/me/collections',
    expect: [201, 201, 201, 201, 201, 201],
    call: (a) => as(a, 'POST', '/api/v1/me/collections', { name: 'Mine' }),
    check: async (a, r) =>
      expect(
        (await as(a, 'GET', `/api/v1/me/collections/${r.body.data.collection.id}`)).body.data.collection.name,
      ).toBe('Mine'),
  },
  {
    name: "GET /api/v1/me/collections/{owner's}",
    expect: [200, 404, 404, 404, 404, 404],
    call: (a, f) => as(a, 'GET', `/api/v1/me/collections/${f.personal}`),
    check: (_a, r, f) => expect(r.body.data.collection).toMatchObject({ id: f.personal, name: 'Owner only' }),
  },
  {
    name: "PATCH /api/v1/me/collections/{owner's}",
    expect: [200, 404, 404, 404, 404, 404],
    call: (a, f) =>
      as(a, 'PATCH', `/api/v1/me/collections/${f.personal}`, { name: 'Renamed', skillSlug: 'dockerfile-linter' }),
    state: (f) => read('owner', `/api/v1/me/collections/${f.personal}`),
    check: (_a, r) => {
      expect(r.body.data.collection.name).toBe('Renamed');
      expect(slugsOf(r)).toContain('dockerfile-linter');
    },
  },
  {
    name: "PATCH own collection + owner's privateSkillId",
    expect: [200, 404, 404, 404, 404, 404],
    call: (a, f) => as(a, 'PATCH', `/api/v1/me/collections/${f.actorsOwn}`, { privateSkillId: privateSkill }),
    state: (f) => read('owner', `/api/v1/me/collections/${f.personal}`),
    check: (_a, r) => expect(slugsOf(r)).toContain(privateSkill),
  },
  {
    name: "DELETE /api/v1/me/collections/{owner's}",
    expect: [200, 404, 404, 404, 404, 404],
    call: (a, f) => as(a, 'DELETE', `/api/v1/me/collections/${f.personal}`),
    state: (f) => read('owner', `/api/v1/me/collections/${f.personal}`),
    check: (_a, _r, f) => gone(`/api/v1/me/collections/${f.personal}`),
  },
  {
    name: 'GET /api/v1/workspaces/{W}/collections',
    expect: [200, 403, 403, 200, 200, 200],
    call: (a) => as(a, 'GET', ws()),
    check: (_a, r, f) => expect(r.body.data.collections.map((c: Json) => c.id)).toContain(f.team),
  },
  {
    name: 'POST /api/v1/workspaces/{W}/collections',
    expect: [201, 403, 403, 403, 201, 201],
    call: (a) => as(a, 'POST', ws(), { name: 'Team list' }),
    state: () => read('owner', ws()),
    check: async (_a, r) =>
      expect((await as('owner', 'GET', ws(`/${r.body.data.collection.id}`))).body.data.collection.name).toBe(
        'Team list',
      ),
  },
  {
    name: 'GET /api/v1/workspaces/{W}/collections/{c}',
    expect: [200, 403, 403, 200, 200, 200],
    call: (a, f) => as(a, 'GET', ws(`/${f.team}`)),
    check: (_a, r, f) =>
      expect(r.body.data.collection).toMatchObject({ id: f.team, name: 'By the owner', workspaceId: workspace }),
  },
  {
    name: 'PATCH /api/v1/workspaces/{W}/collections/{c}',
    expect: [200, 403, 403, 403, 200, 200],
    call: (a, f) => as(a, 'PATCH', ws(`/${f.team}`), { name: 'Renamed', skillSlug: 'dockerfile-linter' }),
    state: (f) => read('owner', ws(`/${f.team}`)),
    check: (_a, r) => {
      expect(r.body.data.collection.name).toBe('Renamed');
      expect(slugsOf(r)).toContain('dockerfile-linter');
    },
  },
  {
    name: 'DELETE team collection created by the owner',
    expect: [200, 403, 403, 403, 403, 200],
    call: (a, f) => as(a, 'DELETE', ws(`/${f.team}`)),
    state: (f) => read('owner', ws(`/${f.team}`)),
    check: (_a, _r, f) => gone(ws(`/${f.team}`)),
  },
  {
    name: 'DELETE team collection created by the member',
    expect: [200, 403, 403, 403, 200, 200],
    call: (a, f) => as(a, 'DELETE', ws(`/${f.teamByMember}`)),
    state: (f) => read('owner', ws(`/${f.teamByMember}`)),
    check: (_a, _r, f) => gone(ws(`/${f.teamByMember}`)),
  },
  {
    name: 'DELETE /api/v1/workspaces/{W}/members/{a member}',
    expect: [200, 403, 403, 403, 403, 200],
    call: async (a) => as(a, 'DELETE', `/api/v1/workspaces/${workspace}/members/${await freshMember()}`),
    check: async () => expect((await membersOfW()).map((m) => m.accountId)).not.toContain(lastMember),
  },
  // the self-service surface (docs/collections.md)
  {
    name: 'GET /api/v1/skills/{slug}',
    expect: [200, 200, 200, 200, 200, 200],
    call: (a) => as(a, 'GET', '/api/v1/skills/dockerfile-linter'),
    check: (_a, r) => expect(r.body.data.skill).toMatchObject({ slug: 'dockerfile-linter', type: expect.any(String) }),
  },
  {
    name: 'POST /api/v1/me/private-skills',
    expect: [201, 201, 201, 201, 201, 201],
    call: (a) => as(a, 'POST', '/api/v1/me/private-skills', { name: 'Mine' }),
    check: async (a, r) => {
      const listed = (await as(a, 'GET', '/api/v1/me/private-skills?limit=50')).body.data.skills as Json[];
      expect(listed.find((s) => s.id === r.body.data.skill.id)?.name).toBe('Mine');
    },
  },
  {
    name: "GET /api/v1/me/private-skills (owner's listed?)",
    expect: [200, 200, 200, 200, 200, 200],
    call: (a) => as(a, 'GET', '/api/v1/me/private-skills?limit=50'),
    check: (a, r) => expect(r.body.data.skills.some((s: Json) => s.id === privateSkill)).toBe(a === 'owner'),
  },
  {
    name: 'POST /api/v1/workspaces',
    expect: [201, 201, 201, 201, 201, 201],
    call: (a) => as(a, 'POST', '/api/v1/workspaces', { name: 'Own' }),
    check: async (a, r) => {
      const mine = (await as(a, 'GET', '/api/v1/workspaces?limit=50')).body.data.workspaces as Json[];
      expect(mine.find((w) => w.id === r.body.data.workspace.id)).toMatchObject({ name: 'Own', role: 'owner' });
    },
  },
  {
    name: 'GET /api/v1/workspaces (W listed, with the role?)',
    expect: [200, 200, 200, 200, 200, 200],
    call: (a) => as(a, 'GET', '/api/v1/workspaces?limit=50'),
    check: (a, r) => expect(r.body.data.workspaces.find((w: Json) => w.id === workspace)?.role).toBe(ROLE_IN_W[a]),
  },
  {
    name: 'GET /api/v1/workspaces/{W}',
    expect: [200, 403, 403, 200, 200, 200],
    call: (a) => as(a, 'GET', `/api/v1/workspaces/${workspace}`),
    check: (a, r) => expect(r.body.data.workspace).toMatchObject({ id: workspace, name: 'W', role: ROLE_IN_W[a] }),
  },
  {
    name: 'GET /api/v1/workspaces/{W}/members',
    expect: [200, 403, 403, 200, 200, 200],
    call: (a) => as(a, 'GET', `/api/v1/workspaces/${workspace}/members?limit=50`),
    check: (a, r) => {
      const roles = new Map((r.body.data.members as Json[]).map((m) => [m.accountId, m.role]));
      expect([roles.get(ids.owner), roles.get(ids[a])]).toEqual(['owner', ROLE_IN_W[a]]);
    },
  },
  {
    name: 'PUT /api/v1/workspaces/{W}/members/{a member} viewer',
    expect: [200, 403, 403, 403, 403, 200],
    call: async (a) =>
      as(a, 'PUT', `/api/v1/workspaces/${workspace}/members/${await freshMember()}`, { role: 'viewer' }),
    check: async () => expect((await membersOfW()).find((m) => m.accountId === lastMember)?.role).toBe('viewer'),
  },
  {
    name: 'PUT /api/v1/workspaces/{W}/members/{the owner} admin',
    expect: [409, 403, 403, 403, 403, 403],
    call: (a) => as(a, 'PUT', `/api/v1/workspaces/${workspace}/members/${ids.owner}`, { role: 'admin' }),
    state: () => read('owner', `/api/v1/workspaces/${workspace}`),
  },
  {
    name: 'GET /api/v1/workspaces/{W}/invitations',
    expect: [200, 403, 403, 403, 403, 200],
    call: (a) => as(a, 'GET', `/api/v1/workspaces/${workspace}/invitations`),
    check: async (_a, r) => {
      const invitation = await freshInvitation();
      expect(Array.isArray(r.body.data.invitations)).toBe(true);
      expect(await pendingInvitations()).toContain(invitation);
      await as('owner', 'DELETE', `/api/v1/workspaces/${workspace}/invitations/${invitation}`);
    },
  },
  {
    name: 'POST /api/v1/workspaces/{W}/invitations',
    expect: [201, 403, 403, 403, 403, 201],
    call: (a) => as(a, 'POST', `/api/v1/workspaces/${workspace}/invitations`, { role: 'member' }),
    state: () => read('owner', `/api/v1/workspaces/${workspace}/invitations`),
    check: async (_a, r) => {
      expect(r.body.data.invitation.role).toBe('member');
      expect(await pendingInvitations()).toContain(r.body.data.invitation.id);
    },
  },
  {
    name: 'DELETE /api/v1/workspaces/{W}/invitations/{i}',
    expect: [200, 403, 403, 403, 403, 200],
    call: async (a) => as(a, 'DELETE', `/api/v1/workspaces/${workspace}/invitations/${await freshInvitation()}`),
    check: async () => expect(await pendingInvitations()).not.toContain(lastInvitation),
  },
  // accepting is a person's act: a console session, never an API key
  {
    name: 'POST /api/v1/invitations/accept with an API key',
    expect: [403, 403, 403, 403, 403, 403],
    call: (a) => as(a, 'POST', '/api/v1/invitations/accept', { token: 'x'.repeat(43) }),
  },
  // An API key is never an admin token, whatever the account's role anywhere.
  {
    name: 'GET /admin/v1/accounts/{owner}',
    expect: [401, 401, 401, 401, 401, 401],
    call: (a) => as(a, 'GET', `/admin/v1/accounts/${ids.owner}`),
  },
  {
    name: 'PUT /admin/v1/skills/{slug}',
    expect: [401, 401, 401, 401, 401, 401],
    call: (a) => as(a, 'PUT', '/admin/v1/skills/dockerfile-linter', { name: 'Hijacked', category: 'devops' }),
    state: () => stack.client.call('GET', '/admin/v1/items?limit=5000', { token: stack.admin }).then((r) => r.body),
  },
  {
    name: 'PUT /admin/v1/workspaces/{W}/members/{self}',
    expect: [401, 401, 401, 401, 401, 401],
    call: (a) => as(a, 'PUT', `/admin/v1/workspaces/${workspace}/members/${ids[a]}`, { role: 'owner' }),
  },
  { name: 'GET /admin/v1/items', expect: [401, 401, 401, 401, 401, 401], call: (a) => as(a, 'GET', '/admin/v1/items') },
];

/** Each actor's role in W, as the workspace list shows it (undefined: not a member). */
const ROLE_IN_W: Record<Actor, string | undefined> = {
  owner: 'owner',
  other: undefined,
  nonMember: undefined,
  viewer: 'viewer',
  member: 'member',
  admin: 'admin',
};

/** A pending invitation to W made by the owner: the target of a revocation. */
async function freshInvitation(): Promise<string> {
  const r = await as('owner', 'POST', `/api/v1/workspaces/${workspace}/invitations`, { role: 'viewer' });
  if (r.status !== 201) throw new Error(`invitation: ${r.status}`);
  lastInvitation = r.body.data.invitation.id as string;
  return lastInvitation;
}

/** A new account made a member of W: the target of a removal. */
async function freshMember(): Promise<string> {
  const target = await newAccount(stack, 'team');
  const put = await stack.client.call('PUT', `/admin/v1/workspaces/${workspace}/members/${target.id}`, {
    token: stack.admin,
    json: { role: 'member' },
  });
  if (put.status !== 200) throw new Error(`member: ${put.status}`);
  lastMember = target.id;
  return target.id;
}

async function created(r: ApiResponse, what: string): Promise<string> {
  if (r.status !== 201) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  const data = r.body.data;
  return (data.collection ?? data.workspace ?? data.skill).id as string;
}

/** Fresh resources for one cell, so a cell's write never changes another cell's outcome. */
async function fixtureFor(actor: Actor): Promise<Fixture> {
  return {
    personal: await created(await as('owner', 'POST', '/api/v1/me/collections', { name: 'Owner only' }), 'personal'),
    actorsOwn: await created(await as(actor, 'POST', '/api/v1/me/collections', { name: 'Actor own' }), 'own'),
    team: await created(await as('owner', 'POST', ws(), { name: 'By the owner' }), 'team'),
    teamByMember: await created(await as('member', 'POST', ws(), { name: 'By the member' }), 'team by member'),
  };
}

/** Collections are capped per account and workspace: each cell removes what it made (a second DELETE is a harmless 404). */
async function cleanUp(actor: Actor, f: Fixture, made: ApiResponse): Promise<void> {
  await as('owner', 'DELETE', `/api/v1/me/collections/${f.personal}`);
  await as(actor, 'DELETE', `/api/v1/me/collections/${f.actorsOwn}`);
  await as('owner', 'DELETE', ws(`/${f.team}`));
  await as('owner', 'DELETE', ws(`/${f.teamByMember}`));
  // an invitation a cell made would count against W's pending ones
  const invitation = made.status === 201 ? (made.body.data.invitation?.id as string | undefined) : undefined;
  if (invitation) await as('owner', 'DELETE', `/api/v1/workspaces/${workspace}/invitations/${invitation}`);
  const id = made.status === 201 ? (made.body.data.collection?.id as string | undefined) : undefined;
  if (id)
    await as('owner', 'DELETE', ws(`/${id}`)).then((r) =>
      r.status === 404 ? as(actor, 'DELETE', `/api/v1/me/collections/${id}`) : r,
    );
}

beforeAll(async () => {
  stack = await startStack();
  for (const actor of ACTORS) {
    const account = await newAccount(stack, 'team');
    keys[actor] = account.key;
    ids[actor] = account.id;
  }
  const admin = (method: string, path: string, json: unknown) =>
    stack.client.call(method, path, { token: stack.admin, json });
  workspace = await created(
    await admin('POST', '/admin/v1/workspaces', { name: 'W', ownerAccountId: ids.owner }),
    'workspace',
  );
  await created(
    await admin('POST', '/admin/v1/workspaces', { name: 'Elsewhere', ownerAccountId: ids.other }),
    'other workspace',
  );
  for (const role of ['viewer', 'member', 'admin'] as const) {
    const r = await admin('PUT', `/admin/v1/workspaces/${workspace}/members/${ids[role]}`, { role });
    if (r.status !== 200) throw new Error(`member ${role}: ${r.status}`);
  }
  privateSkill = await created(
    await admin('POST', `/admin/v1/accounts/${ids.owner}/private-skills`, { name: 'Owner secret' }),
    'private skill',
  );
}, 180_000);

afterAll(async () => {
  console.log(`access matrix: ${cellsChecked} cells checked (${ROWS.length} endpoints × ${ACTORS.length} actors)`);
  await stack?.dispose();
});

it('checks the answer of every allowed cell, not its status alone', () => {
  expect(ROWS.filter((row) => row.expect.some((status) => status < 400) && !row.check).map((row) => row.name)).toEqual(
    [],
  );
});

describe.each(ROWS.map((row) => [row.name, row] as const))('%s', (_name, row) => {
  it.each(ACTORS.map((actor, i) => [actor, row.expect[i] as number] as const))(
    'as %s → %d',
    async (actor, expected) => {
      const fixture = await fixtureFor(actor);
      const before = await row.state?.(fixture);
      const r = await row.call(actor, fixture);
      expect({ status: r.status, body: r.status >= 400 ? r.body : 'ok' }).toEqual({
        status: expected,
        body: expected >= 400 ? { error: expect.any(String) } : 'ok',
      });
      if (expected < 400) await row.check?.(actor, r, fixture);
      else if (row.state) expect(await row.state(fixture)).toEqual(before);
      cellsChecked += 1;
      await cleanUp(actor, fixture, r);
    },
  );
});
