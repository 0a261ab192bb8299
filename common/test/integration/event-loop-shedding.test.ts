import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer, createServiceApp, errorHandler } from '../../src';
import { silentLogger } from '@skills/common/testing';

/** Holds the event loop for `ms`: what a process too busy to keep up looks like from inside. */
function block(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('shedding while the event loop is late', () => {
  const logger = silentLogger();
  const app = createServiceApp({ logger, shedding: { maxDelayMs: 200, windowMs: 500 } });
  app.get('/work', (_req, res) => res.json({ data: 'done' }));
  app.get('/healthz', (_req, res) => res.json({ data: { status: 'ok' } }));
  app.use(errorHandler(logger));
  const server = createHttpServer(app);
  let base = '';

  // listening from the hook, not while the suite is collected: the request below never races the listen
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** Sent at once (node:http, nothing to load first): a request sent just before the loop blocks waits in the socket. */
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; retryAfter: string | undefined; body: unknown }>((resolve, reject) => {
      const req = httpRequest(`${base}${path}`, { headers }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body: JSON.parse(body) }),
        );
      });
      req.on('error', reject);
      req.end();
    });

  it('answers while the loop keeps up, sheds with 503 and Retry-After right after it fell behind, answers probes, and recovers', async () => {
    expect((await get('/work')).status).toBe(200);

    // sent, then the loop blocks before the server could even accept it
    const waiting = get('/work');
    block(700);
    expect(await waiting).toEqual({
      status: 503,
      retryAfter: '1',
      body: { error: 'The server is busy; retry shortly' },
    });
    expect(await get('/work', { 'Accept-Language': 'fr' })).toMatchObject({
      status: 503,
      body: { error: 'Le serveur est surchargé ; réessayez dans un instant' },
    });
    // the load balancer's probe still gets its answer
    expect((await get('/healthz')).status).toBe(200);

    // a window without delay ends it (a loaded machine may need a few)
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      await sleep(300);
      status = (await get('/work')).status;
    }
    expect(status).toBe(200);
  });
});
