/**
 * FailOpenRedis against the real Redis at REDIS_URL, reached through a TCP
 * relay the test can freeze: a Redis that stops answering while the
 * connection stays up (a stall, not a disconnect), as a busy or swapping
 * server does. One warning while it is away, one line when a command
 * succeeds again, although no reconnect ever happens.
 */
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { FailOpenRedis } from '../../src/redis';
import { TEST_REDIS_URL, recordingLogger, redisAnswers } from '../../src/testing';

/** Relays every connection to Redis; while frozen, nothing the clients send is read. */
async function freezableRelay(target: URL) {
  const clients = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    clients.add(client);
    client.on('close', () => clients.delete(client));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    freeze: () => clients.forEach((client) => client.pause()),
    thaw: () => clients.forEach((client) => client.resume()),
    close: async () => {
      clients.forEach((client) => client.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const describeRedis = redisAnswers(TEST_REDIS_URL) ? describe : describe.skip;

describeRedis('FailOpenRedis', () => {
  it('warns once while Redis stalls, and says once that it answers again when a command succeeds', async () => {
    const relay = await freezableRelay(new URL(TEST_REDIS_URL));
    const { logger, warnings } = recordingLogger();
    const redis = new FailOpenRedis({ url: relay.url, commandTimeoutMs: 100, logger, whileAway: 'away', back: 'back' });
    // what an owner does around each command
    const ping = async (): Promise<boolean> => {
      try {
        await redis.client.ping();
        redis.answered();
        return true;
      } catch (err) {
        redis.away(err);
        return false;
      }
    };
    try {
      expect(await redis.ready()).toBe(true);
      expect(await ping()).toBe(true);
      relay.freeze();
      expect(await ping()).toBe(false);
      expect(await ping()).toBe(false);
      relay.thaw();
      expect(await ping()).toBe(true);
      expect(await ping()).toBe(true);
      expect(warnings).toEqual(['away', 'back']);
      expect(redis.client.status).toBe('ready');
    } finally {
      await redis.close();
      await relay.close();
    }
  });
});
