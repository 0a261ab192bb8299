// @not-store-specific two services' rules over HTTP; the database is a fixture
/**
 * Workspace invitations across the two services that share them, in one
 * process on a real database (PGlite, or DATABASE_URL): the real gateway
 * (links, mail, audit, sign-up by invitation) in front of the real
 * collections-service (terms and rules), with a real SMTP server started
 * here. Sign-up is by invitation (`invite`), so the workspace link is also
 * what lets the person in.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { SMTPServer } from 'smtp-server';
import type { Sequelize } from 'sequelize';
import { createSequelize, runMigrations } from '@skills/common';
import { createTestDatabase, testPrincipalKeys, type TestDatabase, silentLogger } from '@skills/common/testing';
import { COLLECTIONS_SCHEMA, collectionsMigrations, createCollectionsApp } from '@skills/collections-service';
import { GATEWAY_CONFIG_DEFAULTS, startGateway, type RunningService } from '@skills/gateway';

const ADMIN_TOKEN = 'admin-token-for-invitation-tests-0123456789';
const PASSWORD = 'marmalade-comet-trellis-9';
const KEYS = testPrincipalKeys();
const silent = silentLogger('invitations-test');

interface Person {
  agent: ReturnType<typeof request.agent>;
  csrf: string;
  id: string;
  email: string;
}

describe('workspace invitations through the gateway', () => {
  let db: TestDatabase;
  let keysDir: string;
  let collections: Server;
  let collectionsDb: Sequelize;
  let gateway: RunningService;
  let origin: string;
  const mails: Array<{ to: string[]; text: string }> = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        // quoted-printable, as a mail client reads it: soft line breaks joined, =XX decoded
        const text = Buffer.concat(chunks)
          .toString('utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text });
        callback();
      });
    },
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    keysDir = await mkdtemp(join(tmpdir(), 'invitation-keys-'));
    const { signingKeyFile } = await KEYS.writeTo(keysDir);
    collectionsDb = createSequelize({ url: db.url, poolMax: 4 });
    await runMigrations(collectionsDb, COLLECTIONS_SCHEMA, collectionsMigrations);
    collections = createCollectionsApp({
      sequelize: collectionsDb,
      verifier: KEYS.verifier('collections-service'),
      logger: silent,
    }).listen(0, '127.0.0.1');
    await once(collections, 'listening');
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const collectionsUrl = `http://127.0.0.1:${(collections.address() as AddressInfo).port}`;
    gateway = await startGateway(
      {
        ...GATEWAY_CONFIG_DEFAULTS,
        port: 0,
        databaseUrl: db.url,
        adminToken: ADMIN_TOKEN,
        principalSigningKeyFile: signingKeyFile,
        principalKeysReloadMs: 0,
        // no search in this suite: catalog-service is not started
        catalogUrl: 'http://127.0.0.1:9',
        collectionsUrl,
        keyCacheTtlMs: 1_000,
        upstreamTimeoutMs: 5_000,
        dbPoolMax: 4,
        logLevel: 'silent',
        rateLimits: { pro: 0, team: 0 },
        answerCache: { ttlMs: 0, maxEntries: 0 },
        host: '127.0.0.1',
        metricsPort: 0,
        hstsMaxAgeSeconds: 0,
        trustProxy: false,
        authFailuresPerMinute: 0,
        audit: { retentionDays: 90, pruneIntervalMs: 0, failureFlushMs: 100 },
        signUpMode: 'invite',
        // small enough for the quota test to cross: 3 invitation mails a day per workspace
        mailQuota: { perAddress: 5, perRecipient: 20, perWorkspace: 3 },
        mail: {
          smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}/?ignoreTLS=true`,
          from: 'Skills Catalog <no-reply@skills.example>',
        },
      },
      silent,
    );
    origin = gateway.url;
  }, 120_000);

  afterAll(async () => {
    await gateway?.close();
    await new Promise<void>((resolve) => collections?.close(() => resolve()));
    await collectionsDb?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await db?.drop();
    await rm(keysDir, { recursive: true, force: true });
  }, 30_000);

  const admin = (method: 'get' | 'post' | 'patch', path: string, body?: object) => {
    const test = request(origin)[method](path).set('Authorization', `Bearer ${ADMIN_TOKEN}`);
    return body === undefined ? test : test.send(body);
  };
  const write = (who: Person, method: 'post' | 'put' | 'delete', path: string, body?: object) => {
    const test = who.agent[method](path).set('Origin', origin).set('X-CSRF-Token', who.csrf);
    return body === undefined ? test : test.send(body);
  };
  const opened = (agent: ReturnType<typeof request.agent>, res: request.Response): Person => ({
    agent,
    csrf: res.body.data.csrfToken,
    id: res.body.data.account.id,
    email: res.body.data.account.email,
  });

  /** An account the operator made, signed in with the one-time link the operator hands out. */
  async function operatorMade(email: string): Promise<Person> {
    const account = await admin('post', '/admin/v1/accounts', { email, plan: 'pro', name: 'Ana' }).expect(201);
    const link = await admin('post', `/admin/v1/accounts/${account.body.data.account.id}/links`, {
      purpose: 'sign-in',
    }).expect(201);
    const token = /#token=(.+)$/.exec(link.body.data.link.url as string)?.[1];
    const agent = request.agent(origin);
    return opened(
      agent,
      await agent.post('/api/v1/auth/sign-in-link').set('Origin', origin).send({ token }).expect(200),
    );
  }

  async function signUpWith(email: string, invitation: string | undefined) {
    const agent = request.agent(origin);
    const res = await agent
      .post('/api/v1/auth/sign-up')
      .set('Origin', origin)
      .send({ email, password: PASSWORD, ...(invitation ? { invitation } : {}) });
    return { res };
  }

  const tokenOf = (url: string) => /#token=([A-Za-z0-9_-]{43})$/.exec(url)?.[1] as string;
  /** The address verification link mailed to `to` at sign-up (sent after the answer, so waited for). */
  async function verificationLinkTo(to: string): Promise<string> {
    const deadline = Date.now() + 5_000;
    let link: string | undefined;
    while (!link) {
      link = mails
        .filter((m) => m.to.includes(to))
        .map((m) => new RegExp(`${origin}/console/verify#token=[A-Za-z0-9_-]{43}`).exec(m.text)?.[0])
        .find((l) => l !== undefined);
      if (!link && Date.now() > deadline) throw new Error(`no verification mail to ${to} within 5 s`);
      if (!link) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return link;
  }
  /** The verification link opened as its owner does, with the sign-up's password: it signs them in. */
  async function verifyByLink(link: string): Promise<Person> {
    const agent = request.agent(origin);
    return opened(
      agent,
      await agent
        .post('/api/v1/auth/verify-email')
        .set('Origin', origin)
        .send({ token: tokenOf(link), password: PASSWORD })
        .expect(200),
    );
  }
  /**
   * The records of `action`, newest first, once there is one: a proxied write is recorded after the
   * service answered (docs/security.md, Audit trail), so the test's next request can arrive first.
   */
  const audited = async (action: string) => {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const events = (await admin('get', `/admin/v1/audit-events?action=${action}`).expect(200)).body.data.events;
      if (events.length > 0) return events;
      if (Date.now() > deadline) throw new Error(`no ${action} audit record within 5 s`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  it('invites by mail; the link signs the person up, then joins them with the role, once', async () => {
    const ana = await operatorMade('ana@example.com');
    const ws = await write(ana, 'post', '/api/v1/workspaces', { name: 'Platform' }).expect(201);
    const workspaceId = ws.body.data.workspace.id as string;
    expect(ws.body.data.workspace).toMatchObject({ name: 'Platform', role: 'owner', memberCount: 1 });

    const invited = await write(ana, 'post', `/api/v1/workspaces/${workspaceId}/invitations`, {
      role: 'viewer',
      email: 'bo@example.com',
    }).expect(201);
    const invitation = invited.body.data.invitation;
    expect(invited.headers['cache-control']).toBe('no-store');
    expect(invitation).toMatchObject({
      workspaceId,
      role: 'viewer',
      email: 'bo@example.com',
      createdBy: ana.id,
      mailed: true,
    });
    expect(invitation.url).toMatch(new RegExp(`^${origin}/console/invitations#token=[A-Za-z0-9_-]{43}$`));
    expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBeGreaterThan(6.9 * 86_400_000);
    const mail = mails.at(-1);
    expect(mail?.to).toEqual(['bo@example.com']);
    // Only our words: the workspace's name and the inviter's are chosen by users, and the address by the inviter.
    expect(mail?.text).toContain('Subject: You are invited to a team workspace on Skills Catalog');
    expect(mail?.text).toContain('You are invited to join a team workspace on Skills Catalog, as viewer.');
    expect(mail?.text).not.toMatch(/Platform|Ana/);
    expect(mail?.text).toContain(invitation.url);
    const token = tokenOf(invitation.url);

    // invite mode: no sign-up without an invitation; the workspace link is one
    expect((await signUpWith('bo@example.com', undefined)).res.status).toBe(403);
    // The answer is the same whether the address is known; the account exists once the verification mail is sent.
    expect((await signUpWith('bo@example.com', token)).res.body).toEqual({ data: { requested: true } });
    const link = await verificationLinkTo('bo@example.com');
    // an invitation goes to an address: nothing happens for the account until its owner has opened the verification mail
    const unverified = await request(origin)
      .post('/api/v1/auth/sign-in')
      .set('Origin', origin)
      .send({ email: 'bo@example.com', password: PASSWORD })
      .expect(403);
    expect(unverified.body.error).toMatch(/^Verify your email address first/);
    expect(unverified.headers['set-cookie']).toBeUndefined();
    const bo = await verifyByLink(link);
    // the page shows the terms once opened: the workspace's name comes from there, not from the mail
    const preview = await write(bo, 'post', '/api/v1/invitations/preview', { token }).expect(200);
    expect(preview.body.data.invitation).toEqual({
      id: invitation.id,
      role: 'viewer',
      expiresAt: invitation.expiresAt,
      workspace: { id: workspaceId, name: 'Platform' },
    });
    const joined = await write(bo, 'post', '/api/v1/invitations/accept', { token }).expect(200);
    expect(joined.body.data.workspace).toMatchObject({ id: workspaceId, role: 'viewer', memberCount: 2 });

    // once: neither joining nor signing up again with it
    const again = await write(bo, 'post', '/api/v1/invitations/accept', { token })
      .set('Accept-Language', 'fr')
      .expect(400);
    expect(again.body).toEqual({ error: 'Cette invitation est invalide, révoquée, déjà utilisée ou expirée' });
    expect((await signUpWith('cy@example.com', token)).res.status).toBe(400);

    // the members, with their emails, to every member
    const members = await bo.agent.get(`/api/v1/workspaces/${workspaceId}/members`).expect(200);
    expect(members.body.data.members).toEqual([
      { accountId: ana.id, email: 'ana@example.com', name: 'Ana', role: 'owner', joinedAt: expect.any(String) },
      { accountId: bo.id, email: 'bo@example.com', name: null, role: 'viewer', joinedAt: expect.any(String) },
    ]);
    expect(members.headers.etag).toMatch(/^"/);
    expect(members.headers['cache-control']).toBe('private, no-cache');

    const [created] = await audited('workspace.invitation_create');
    expect(created).toMatchObject({
      actor: { kind: 'account', accountId: ana.id },
      target: workspaceId,
      details: { invitationId: invitation.id, role: 'viewer' },
    });
    const [accepted] = await audited('workspace.invitation_accept');
    expect(accepted).toMatchObject({
      actor: { kind: 'account', accountId: bo.id },
      targetAccountId: bo.id,
      target: workspaceId,
    });
    expect(JSON.stringify([created, accepted])).not.toContain(token);
  }, 60_000);

  it('revokes: the link then neither signs anyone up nor joins anyone', async () => {
    const ana = await operatorMade('ana2@example.com');
    const workspaceId = (await write(ana, 'post', '/api/v1/workspaces', { name: 'Data' }).expect(201)).body.data
      .workspace.id as string;
    const before = mails.length;
    const invited = await write(ana, 'post', `/api/v1/workspaces/${workspaceId}/invitations`, {
      role: 'member',
      expiresInDays: 1,
    }).expect(201);
    expect(invited.body.data.invitation).toMatchObject({ email: null, mailed: false });
    expect(mails).toHaveLength(before);
    const listed = await ana.agent.get(`/api/v1/workspaces/${workspaceId}/invitations`).expect(200);
    expect(listed.body.data.invitations.map((i: { id: string }) => i.id)).toEqual([invited.body.data.invitation.id]);

    const invitationId = invited.body.data.invitation.id as string;
    await write(ana, 'delete', `/api/v1/workspaces/${workspaceId}/invitations/${invitationId}`).expect(200, {
      data: { revoked: true },
    });
    const token = tokenOf(invited.body.data.invitation.url);
    expect((await signUpWith('dee@example.com', token)).res.body).toEqual({
      error: 'This link is invalid, already used or expired',
    });
    expect((await write(ana, 'post', '/api/v1/invitations/accept', { token })).status).toBe(400);
    expect((await ana.agent.get(`/api/v1/workspaces/${workspaceId}/invitations`)).body.data.invitations).toEqual([]);
    const [revoked] = await audited('workspace.invitation_revoke');
    expect(revoked).toMatchObject({ actor: { accountId: ana.id }, target: workspaceId, details: { invitationId } });
  }, 60_000);

  it('a link whose creator lost the right to invite signs nobody up, though only collections-service revoked it', async () => {
    const ana = await operatorMade('ana5@example.com');
    const workspaceId = (await write(ana, 'post', '/api/v1/workspaces', { name: 'Infra' }).expect(201)).body.data
      .workspace.id as string;
    const asAdmin = tokenOf(
      (await write(ana, 'post', `/api/v1/workspaces/${workspaceId}/invitations`, { role: 'admin' }).expect(201)).body
        .data.invitation.url,
    );
    const gil = await operatorMade('gil@example.com');
    await write(gil, 'post', '/api/v1/invitations/accept', { token: asAdmin }).expect(200);
    const gilsLink = tokenOf(
      (await write(gil, 'post', `/api/v1/workspaces/${workspaceId}/invitations`, { role: 'member' }).expect(201)).body
        .data.invitation.url,
    );
    const stillGood = tokenOf(
      (await write(ana, 'post', `/api/v1/workspaces/${workspaceId}/invitations`, { role: 'member' }).expect(201)).body
        .data.invitation.url,
    );

    await write(ana, 'delete', `/api/v1/workspaces/${workspaceId}/members/${gil.id}`).expect(200);
    const refused = await signUpWith('hal@example.com', gilsLink);
    expect(refused.res.status).toBe(400);
    expect(refused.res.body).toEqual({ error: 'This link is invalid, already used or expired' });
    // nobody was made: the address is still free for a link that is good
    expect((await signUpWith('hal@example.com', stillGood)).res.body).toEqual({ data: { requested: true } });
    const hal = await verifyByLink(await verificationLinkTo('hal@example.com'));
    expect(hal.email).toBe('hal@example.com');
  }, 60_000);

  it("relays the workspace's refusals in the caller's language, and keeps accepting to a console session", async () => {
    const ana = await operatorMade('ana3@example.com');
    const workspaceId = (await write(ana, 'post', '/api/v1/workspaces', { name: 'Ops' }).expect(201)).body.data
      .workspace.id as string;
    const outsider = await operatorMade('eve@example.com');
    const refused = await write(outsider, 'post', `/api/v1/workspaces/${workspaceId}/invitations`, { role: 'admin' })
      .set('Accept-Language', 'fr')
      .expect(403);
    expect(refused.body).toEqual({ error: "Vous n'avez pas accès à cet espace de travail" });
    expect((await write(ana, 'post', `/api/v1/workspaces/${workspaceId}/invitations`, { role: 'owner' })).body).toEqual(
      {
        error: '"role" must be one of: admin, member, viewer',
      },
    );
    expect((await outsider.agent.get(`/api/v1/workspaces/${workspaceId}/members`)).status).toBe(403);
    // without the CSRF token a session's write is refused before anything is called
    expect((await outsider.agent.post('/api/v1/workspaces').set('Origin', origin).send({ name: 'x' })).status).toBe(
      403,
    );

    // an API key: the scope decides, and accepting is a person's act
    const key = async (scopes: string[]) =>
      (await admin('post', `/admin/v1/accounts/${ana.id}/api-keys`, { name: scopes.join(' '), scopes }).expect(201))
        .body.data.apiKey.key as string;
    const reader = await key(['collections:read']);
    const noScope = await request(origin)
      .post(`/api/v1/workspaces/${workspaceId}/invitations`)
      .set('Authorization', `Bearer ${reader}`)
      .send({ role: 'member' });
    expect(noScope.status).toBe(403);
    expect(noScope.body).toEqual({ error: 'This API key does not have the "workspaces:manage" scope' });
    expect(
      (await request(origin).get(`/api/v1/workspaces/${workspaceId}/members`).set('Authorization', `Bearer ${reader}`))
        .status,
    ).toBe(200);
    const manager = await key(['workspaces:manage']);
    const byKey = await request(origin)
      .post(`/api/v1/workspaces/${workspaceId}/invitations`)
      .set('Authorization', `Bearer ${manager}`)
      .send({ role: 'member' });
    expect(byKey.status).toBe(201);
    const token = tokenOf(byKey.body.data.invitation.url);
    const accept = await request(origin)
      .post('/api/v1/invitations/accept')
      .set('Authorization', `Bearer ${manager}`)
      .send({ token });
    expect(accept.status).toBe(403);
    expect(accept.body).toEqual({ error: 'Only a signed-in console session can do this, not an API key' });
    expect((await write(outsider, 'post', '/api/v1/invitations/accept', { token: 'short' })).body).toEqual({
      error: 'This invitation is invalid, revoked, already used or expired',
    });
    await write(outsider, 'post', '/api/v1/invitations/accept', { token }).expect(200);
    // accepted by a person signed in already: the link is used up all the same
    expect((await signUpWith('gus@example.com', token)).res.status).toBe(400);
  }, 60_000);

  it('records role changes and removals made through the public API', async () => {
    const ana = await operatorMade('ana4@example.com');
    const workspaceId = (await write(ana, 'post', '/api/v1/workspaces', { name: 'Audit' }).expect(201)).body.data
      .workspace.id as string;
    const token = tokenOf(
      (await write(ana, 'post', `/api/v1/workspaces/${workspaceId}/invitations`, { role: 'member' }).expect(201)).body
        .data.invitation.url,
    );
    const fay = await operatorMade('fay@example.com');
    await write(fay, 'post', '/api/v1/invitations/accept', { token }).expect(200);
    const changed = await write(ana, 'put', `/api/v1/workspaces/${workspaceId}/members/${fay.id}`, {
      role: 'viewer',
    }).expect(200);
    expect(changed.body.data.member).toMatchObject({ accountId: fay.id, role: 'viewer' });
    const [set] = await audited('workspace.member_set');
    expect(set).toMatchObject({
      actor: { accountId: ana.id },
      target: workspaceId,
      targetAccountId: fay.id,
      details: { role: 'viewer', status: 200 },
    });
    await write(fay, 'delete', `/api/v1/workspaces/${workspaceId}/members/me`).expect(200);
    const [removed] = await audited('workspace.member_remove');
    expect(removed).toMatchObject({ actor: { accountId: fay.id }, target: workspaceId, targetAccountId: fay.id });
  }, 60_000);

  it('mails at most the workspace quota of invitations a day, then refuses with 429 and leaves no pending invitation behind', async () => {
    const ana = await operatorMade('ana-quota@example.com');
    const workspaceId = (await write(ana, 'post', '/api/v1/workspaces', { name: 'Quota' }).expect(201)).body.data
      .workspace.id as string;
    const before = mails.length;
    for (const to of ['q1@example.com', 'q2@example.com', 'q3@example.com']) {
      expect(
        (
          await write(ana, 'post', `/api/v1/workspaces/${workspaceId}/invitations`, {
            role: 'member',
            email: to,
          }).expect(201)
        ).body.data.invitation.mailed,
      ).toBe(true);
    }
    const refused = await write(ana, 'post', `/api/v1/workspaces/${workspaceId}/invitations`, {
      role: 'member',
      email: 'q4@example.com',
    }).expect(429);
    expect(refused.body.error).toMatch(
      /^This workspace sent too many invitation mails today; retry in \d+ h, or share the link without email$/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const fr = await write(ana, 'post', `/api/v1/workspaces/${workspaceId}/invitations`, {
      role: 'member',
      email: 'q4@example.com',
    })
      .set('Accept-Language', 'fr')
      .expect(429);
    expect(fr.body.error).toContain("Cet espace de travail a envoyé trop d'invitations par e-mail");
    // a link without email is still possible; the refused ones left nothing pending
    await write(ana, 'post', `/api/v1/workspaces/${workspaceId}/invitations`, { role: 'member' }).expect(201);
    const listed = (await ana.agent.get(`/api/v1/workspaces/${workspaceId}/invitations`).expect(200)).body.data
      .invitations as { email: string | null }[];
    expect(listed.map((i) => i.email).sort()).toEqual(
      ['q1@example.com', 'q2@example.com', 'q3@example.com', null].sort(),
    );
    const deadline = Date.now() + 5_000;
    while (mails.length < before + 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(
      mails
        .slice(before)
        .flatMap((m) => m.to)
        .sort(),
    ).toEqual(['q1@example.com', 'q2@example.com', 'q3@example.com']);
  }, 60_000);
});
