/**
 * The proxy's failure mapping against misbehaving peers that the fake
 * services of the harness cannot imitate: garbage instead of HTTP, and a
 * connection reset after the request was sent.
 */
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { errorHandler, requestContext } from '@skills/common';
import { Upstream } from '../../src/http/proxy/upstream-proxy';
import { silentLogger } from '@skills/common/testing';

const logger = silentLogger('upstream-test');

async function rawServer(onData: (socket: Socket) => void): Promise<{ url: string; server: Server }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () => onData(socket));
  });
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function appFor(upstream: Upstream) {
  const app = express();
  app.use(requestContext());
  app.use((req, res) => upstream.forward(req, res, { sign: () => 'v1.x.y', bodyLimit: 1024 }));
  app.use(errorHandler(logger));
  return app;
}

describe('Upstream error mapping', () => {
  const servers: Server[] = [];
  const upstreams: Upstream[] = [];
  afterAll(async () => {
    await Promise.all(upstreams.map((u) => u.close()));
    servers.forEach((s) => s.close());
  });

  async function proxyTo(onData: (socket: Socket) => void) {
    const { url, server } = await rawServer(onData);
    servers.push(server);
    const upstream = new Upstream({ name: 'peer', url, timeoutMs: 2_000, logger });
    upstreams.push(upstream);
    return request(appFor(upstream));
  }

  it('answers 502 when the service speaks something other than HTTP', async () => {
    const http = await proxyTo((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'));
    const res = await http.get('/api/v1/skills').expect(502);
    expect(res.body).toEqual({ error: 'The service gave an invalid answer' });
  });

  it('answers 503 when the service resets the connection after the request', async () => {
    const http = await proxyTo((socket) => socket.resetAndDestroy());
    const res = await http.get('/api/v1/skills').set('Accept-Language', 'fr').expect(503);
    expect(res.body).toEqual({ error: 'Le service est temporairement indisponible' });
  });

  it('answers 503 when nothing listens on the port, and reports it unhealthy', async () => {
    const { url, server } = await rawServer(() => undefined);
    server.close();
    await once(server, 'close');
    const upstream = new Upstream({ name: 'gone', url, logger });
    upstreams.push(upstream);
    const res = await request(appFor(upstream)).get('/api/v1/skills').expect(503);
    expect(res.body).toEqual({ error: 'The service is temporarily unavailable' });
    await expect(upstream.healthy()).resolves.toBe(false);
  });
});

describe("Upstream.call, the gateway's own calls", () => {
  let server: Server | undefined;
  let upstream: Upstream | undefined;
  afterEach(async () => {
    await upstream?.close();
    server?.close();
  });

  /** collections-service answering each request with the next status of `statuses` (the last one repeats). */
  async function service(statuses: number[]) {
    const seen: string[] = [];
    const app = express();
    app.use((req, res) => {
      seen.push(`${req.method} ${req.get('x-skills-principal')}`);
      const status = (statuses.length > 1 ? statuses.shift() : statuses[0]) as number;
      res
        .status(status)
        .set('Retry-After', '7')
        .json(status < 300 ? { data: { members: [] } } : { error: 'no' });
    });
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    upstream = new Upstream({
      name: 'collections',
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      logger,
    });
    let signed = 0;
    const call = (method: 'GET' | 'POST') =>
      (upstream as Upstream).call({
        method,
        path: '/api/v1/workspaces/w/members',
        sign: () => `p${++signed}`,
        requestId: 'r1',
      });
    return { seen, call };
  }

  it('asks a read again after a 503 and a 502, signing each try anew', async () => {
    const collections = await service([503, 502, 200]);
    await expect(collections.call('GET')).resolves.toEqual({ status: 200, body: { data: { members: [] } } });
    expect(collections.seen).toEqual(['GET p1', 'GET p2', 'GET p3']);
  });

  it("never asks a write again, and relays the service's 503 with its Retry-After", async () => {
    const collections = await service([503, 201]);
    await expect(collections.call('POST')).rejects.toMatchObject({ status: 503, headers: { 'Retry-After': '7' } });
    expect(collections.seen).toEqual(['POST p1']);
  });

  it('takes a 500 as the answer', async () => {
    const collections = await service([500, 200]);
    await expect(collections.call('GET')).resolves.toEqual({ status: 500, body: { error: 'no' } });
    expect(collections.seen).toEqual(['GET p1']);
  });
});
