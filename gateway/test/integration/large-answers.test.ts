import { request as httpRequest } from 'node:http';
import { ETAG_MAX_BYTES } from '../../src/http/proxy/upstream-proxy';
import { BIG_ANSWER_HELD_BACK, startHarness, type Harness } from './harness';

/** Public reads larger than the gateway holds for an ETag are streamed through, not buffered. */
describe('gateway: answers larger than the ETag bound', () => {
  let h: Harness;
  let auth: string;

  beforeAll(async () => {
    h = await startHarness({ upstreamTimeoutMs: 5_000 });
    auth = `Bearer ${(await h.accountWithKey('pro')).key}`;
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  }, 30_000);

  /** GETs `path`, telling `onBytes` how many body bytes have arrived after each chunk. */
  function get(
    path: string,
    onBytes: (received: number) => void,
  ): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${h.gateway.url}${path}`, { headers: { authorization: auth } }, (res) => {
        const chunks: Buffer[] = [];
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          received += chunk.length;
          onBytes(received);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('streams a 2 MB answer: the client reads most of it before the service has finished, and gets no ETag', async () => {
    let release: () => void = () => undefined;
    const bytes = 2 * ETAG_MAX_BYTES;
    h.collections.bigAnswer = { bytes, release: new Promise<void>((resolve) => (release = resolve)) };
    let beforeRelease = 0;
    let released = false;
    const answer = await get('/api/v1/me/collections/big', (received) => {
      if (released) return;
      beforeRelease = received;
      // All but the held-back bytes came while the service still held its answer open: nothing waited for the whole body.
      if (received >= bytes - BIG_ANSWER_HELD_BACK) {
        released = true;
        release();
      }
    });
    expect(answer.status).toBe(200);
    expect(beforeRelease).toBe(bytes - BIG_ANSWER_HELD_BACK);
    expect(answer.body.length).toBe(bytes);
    expect(JSON.parse(answer.body.toString()).data.blob).toHaveLength(bytes - 20);
    expect(answer.headers.etag).toBeUndefined();
    expect(answer.headers['cache-control']).toBe('private, no-cache');
  });

  it('still tags an answer within the bound and answers If-None-Match with 304', async () => {
    h.collections.bigAnswer = { bytes: ETAG_MAX_BYTES, release: Promise.resolve() };
    const first = await h.http.get('/api/v1/me/collections/big').set('Authorization', auth).expect(200);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    await h.http
      .get('/api/v1/me/collections/big')
      .set('Authorization', auth)
      .set('If-None-Match', first.headers.etag as string)
      .expect(304);
  });
});
