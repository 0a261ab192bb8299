/** SkillsAdminClient and SkillsScannerClient: what they send, a streamed import, and a server that does not answer. */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, SkillsAdminClient, SkillsScannerClient, UnreachableError } from '../../src';
import { fakeFetch } from '../support/fake-fetch';

const admin = (fetch: typeof globalThis.fetch, baseUrl = 'http://api.test') =>
  new SkillsAdminClient({ baseUrl, adminToken: 'admin-token', fetch });

describe('SkillsAdminClient', () => {
  it('sends accounts, keys and workspaces to their admin routes and unwraps each answer', async () => {
    const fake = fakeFetch(200, {
      data: {
        account: { id: 'a1' },
        apiKey: { id: 'k1', key: 'sk_live_x' },
        workspace: { id: 'w1' },
        job: { id: 'j1' },
      },
    });
    const sut = admin(fake.impl);
    await expect(sut.createAccount({ email: 'ana@example.com', plan: 'pro' })).resolves.toEqual({ id: 'a1' });
    await expect(sut.issueApiKey('a/1', { name: 'ci', expiresInDays: null })).resolves.toEqual({
      id: 'k1',
      key: 'sk_live_x',
    });
    await sut.revokeApiKey('k1');
    await expect(sut.createWorkspace({ name: 'Team', ownerAccountId: 'a1' })).resolves.toEqual({ id: 'w1' });
    await sut.setWorkspaceMember('w1', 'a2', 'viewer');
    await sut.listAuditEvents({ action: 'api_key.issue', limit: 20 });
    await expect(sut.getReindex('j1')).resolves.toEqual({ id: 'j1' });
    expect(fake.sent.map((s) => `${s.method} ${s.url}`)).toEqual([
      'POST http://api.test/admin/v1/accounts',
      'POST http://api.test/admin/v1/accounts/a%2F1/api-keys',
      'DELETE http://api.test/admin/v1/api-keys/k1',
      'POST http://api.test/admin/v1/workspaces',
      'PUT http://api.test/admin/v1/workspaces/w1/members/a2',
      'GET http://api.test/admin/v1/audit-events?action=api_key.issue&limit=20',
      'GET http://api.test/admin/v1/reindex/j1',
    ]);
    expect(fake.sent[0]?.headers).toMatchObject({
      Authorization: 'Bearer admin-token',
      'Content-Type': 'application/json',
    });
    expect(JSON.parse(String(fake.sent[1]?.body))).toEqual({ name: 'ci', expiresInDays: null });
    expect(JSON.parse(String(fake.sent[4]?.body))).toEqual({ role: 'viewer' });
  });

  it('streams an NDJSON import as it is read, and resolves to the count imported', async () => {
    const received: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(
          `${req.method} ${req.url} ${req.headers['content-type']} ${req.headers['transfer-encoding']}`,
          body,
        );
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { imported: 2 } }));
      });
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const lines = ['{"slug":"a","name":"A","category":"c"}\n', '{"slug":"b","name":"B","category":"c"}\n'];
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const line of lines) controller.enqueue(new TextEncoder().encode(line));
          controller.close();
        },
      });
      const sut = admin(globalThis.fetch, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      await expect(sut.importSkills(stream)).resolves.toBe(2);
      expect(received).toEqual(['POST /admin/v1/skills:import application/x-ndjson chunked', lines.join('')]);
    } finally {
      server.close();
    }
  });

  it('throws ApiError for an answer and UnreachableError, naming the address and the reason, when none comes', async () => {
    const refused = fakeFetch(409, { error: 'This email address is already taken' }, { 'x-request-id': 'r9' });
    await expect(admin(refused.impl).createAccount({ email: 'a@example.com', plan: 'pro' })).rejects.toEqual(
      new ApiError(409, 'This email address is already taken', 'r9'),
    );
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.close();
    await once(server, 'close');
    const err = await admin(globalThis.fetch, baseUrl)
      .getAccount('a1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnreachableError);
    expect((err as Error).message).toBe(`cannot reach ${baseUrl} (ECONNREFUSED)`);
  });
});

describe('SkillsScannerClient', () => {
  it("records a verdict with the scanner's own credential", async () => {
    const fake = fakeFetch(201, { data: { release: { version: '1.4.0', verdict: 'clean' } } });
    const sut = new SkillsScannerClient({ baseUrl: 'http://api.test', scannerToken: 'sks_token', fetch: fake.impl });
    await expect(sut.recordVerdict('pdf', '1.4.0', { verdict: 'clean', summary: 'no findings' })).resolves.toEqual({
      version: '1.4.0',
      verdict: 'clean',
    });
    expect(fake.sent[0]).toMatchObject({
      method: 'POST',
      url: 'http://api.test/api/v1/skills/pdf/versions/1.4.0/verdicts',
    });
    expect(fake.sent[0]?.headers).toMatchObject({ Authorization: 'Bearer sks_token' });
    expect(JSON.parse(String(fake.sent[0]?.body))).toEqual({ verdict: 'clean', summary: 'no findings' });
  });
});
