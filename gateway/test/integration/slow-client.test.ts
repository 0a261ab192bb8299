/**
 * The gateway is the public edge: a client that sends its headers and then
 * trickles the body (or never finishes its headers) must be cut off after a
 * bounded time, and a body declared too large must be refused before a byte
 * of it is sent. Raw sockets, because fetch cannot pause mid-body.
 */
import { connect, type Socket } from 'node:net';
import { ADMIN_TOKEN, startHarness, type Harness } from './harness';

const HEADERS_TIMEOUT_MS = 600;
const REQUEST_TIMEOUT_MS = 1_200;
/** the sweep runs every headersTimeout / 4, so the cut comes within 1.25× the limit; the rest is CI slack */
const CUT_WITHIN_MS = 6_000;

interface Outcome {
  /** everything the server wrote before it closed */
  response: string;
  closedAfterMs: number;
}

/** Opens a socket, writes `head`, then one byte of body every `tickMs` until the server closes the socket. */
function trickle(port: number, head: string, tickMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket: Socket = connect(port, '127.0.0.1');
    let response = '';
    let timer: NodeJS.Timeout | undefined;
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`socket still open after ${CUT_WITHIN_MS} ms; got: ${response}`));
    }, CUT_WITHIN_MS);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (response += chunk));
    socket.on('error', () => undefined); // a reset while writing is the cut we expect
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(guard);
      resolve({ response, closedAfterMs: Date.now() - started });
    });
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write('{');
      }, tickMs);
    });
  });
}

describe('gateway against slow and oversized clients', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('cuts off a client that sends its headers and then trickles the body, with 408', async () => {
    const head =
      'POST /admin/v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      `Authorization: Bearer ${ADMIN_TOKEN}\r\nContent-Length: 1000\r\n\r\n`;
    const outcome = await trickle(h.gateway.port, head, 100);
    expect(outcome.response).toMatch(/^HTTP\/1\.1 408/);
    expect(outcome.response).toContain('{"error":"The request was not received in time"}');
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
  });

  it('cuts off a client that never finishes its headers', async () => {
    const outcome = await trickle(h.gateway.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ', 100);
    expect(outcome.response).toMatch(/^HTTP\/1\.1 408/);
    expect(outcome.response).toContain('{"error":"The request was not received in time"}');
  });

  it('answers 413 to a 200 MB Content-Length at once, without the body being sent', async () => {
    const { key } = await h.accountWithKey('pro');
    for (const [path, auth] of [
      ['/admin/v1/accounts', ADMIN_TOKEN],
      ['/api/v1/me/collections', key],
    ] as const) {
      const socket = connect(h.gateway.port, '127.0.0.1');
      const response = await new Promise<string>((resolve, reject) => {
        let text = '';
        const guard = setTimeout(() => reject(new Error(`no answer within 5 s to ${path}; got: ${text}`)), 5_000);
        socket.setEncoding('utf8');
        socket.on('error', reject);
        socket.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('\r\n\r\n') && text.includes('}')) {
            clearTimeout(guard);
            resolve(text);
          }
        });
        socket.on('connect', () =>
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${auth}\r\n` +
              `Content-Length: ${200 * 1024 * 1024}\r\n\r\n`,
          ),
        );
      });
      socket.destroy();
      expect(response).toMatch(/^HTTP\/1\.1 413/);
      expect(response).toMatch(/x-request-id: \S+/i);
      expect(
        JSON.parse(
          response
            .slice(response.indexOf('\r\n\r\n') + 4)
            .replace(/^[0-9a-f]+\r\n/, '')
            .split('\r\n')[0] ?? '',
        ),
      ).toEqual({
        error: expect.stringContaining('100'),
      });
    }
  });
});
