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
import { createLogger, errorHandler, requestContext } from '@skills/common';
import { Upstream } from '../../src/http/upstream-proxy';

const logger = createLogger({ service: 'upstream-test', level: 'silent' });

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
