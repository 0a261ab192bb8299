/**
 * Least privilege in Redis, on the Redis at REDIS_URL (default
 * 127.0.0.1:6379; reported skipped when it does not answer): the users of
 * deploy/redis/users.acl, created here exactly as docs/deploy.md says
 * (`ACL SETUSER <user> reset on ><password> <rules>`, under names of this
 * run, deleted at the end), run the code each service runs against Redis,
 * and are refused the rest. Every Redis piece fails open (a refused command
 * falls back to the process's memory), so each case proves the command went
 * through by what only Redis can do: two replicas sharing one count.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { TEST_REDIS_URL, redisAnswers, recordingLogger } from '@skills/common/testing';
import { RedisReplayGuard, replayGuardPrefix } from '@skills/common/redis';
import { RedisRateLimitStore } from '../../../../gateway/src/store/redis-rate-limit.store';

const describeRedis = redisAnswers(TEST_REDIS_URL) ? describe : describe.skip;
const ACL_FILE = join(__dirname, '../../../../deploy/redis/users.acl');

/** The rules of each user in the deploy file, by its name there. */
async function deployedRules(): Promise<Map<string, string[]>> {
  const lines = (await readFile(ACL_FILE, 'utf8')).split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
  return new Map(lines.map((l) => l.trim().split(/\s+/)).map(([user, ...rules]) => [user as string, rules]));
}

describeRedis('the Redis user of each service (deploy/redis/users.acl)', () => {
  const admin = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  const suffix = randomBytes(4).toString('hex');
  /** the URL each deployed user connects with, by its name in the deploy file */
  const urls = new Map<string, string>();
  const created: string[] = [];
  const closing: Array<{ close(): Promise<void> }> = [];
  const { logger, warnings } = recordingLogger();

  beforeAll(async () => {
    const rules = await deployedRules();
    expect([...rules.keys()].sort()).toEqual([
      'skills-catalog-service',
      'skills-collections-service',
      'skills-gateway',
    ]);
    const base = new URL(TEST_REDIS_URL);
    for (const [user, userRules] of rules) {
      const name = `${user}-${suffix}`;
      const password = randomBytes(16).toString('hex');
      await admin.call('ACL', 'SETUSER', name, 'reset', 'on', `>${password}`, ...userRules);
      created.push(name);
      urls.set(user, `redis://${encodeURIComponent(name)}:${password}@${base.host}`);
    }
  });

  afterAll(async () => {
    await Promise.all(closing.map((c) => c.close()));
    if (created.length > 0) await admin.call('ACL', 'DELUSER', ...created);
    await admin.quit();
  });

  const as = (user: string) => urls.get(user) as string;
  const rawAs = (user: string) => {
    const client = new Redis(as(user), { maxRetriesPerRequest: 1, enableReadyCheck: false });
    closing.push({ close: () => client.quit().then(() => undefined) });
    return client;
  };

  it('gateway: two replicas share one rate-limit window through the script, and nothing else is theirs', async () => {
    const [a, b] = [0, 1].map(() => new RedisRateLimitStore({ url: as('skills-gateway'), logger }));
    closing.push(a as RedisRateLimitStore, b as RedisRateLimitStore);
    await Promise.all([a?.connect(5_000), b?.connect(5_000)]);
    const id = `acl-test:${randomUUID()}`;
    expect((await a?.take(id, 2, 60_000))?.allowed).toBe(true);
    expect((await a?.take(id, 2, 60_000))?.allowed).toBe(true);
    // the third, on the other replica: refused only if both counted in Redis
    expect((await b?.take(id, 2, 60_000))?.allowed).toBe(false);
    expect(warnings).toEqual([]);
    await admin.del(`skills:ratelimit:${id}`);

    const gateway = rawAs('skills-gateway');
    await expect(gateway.set(`${replayGuardPrefix('catalog-service')}x`, '1')).rejects.toThrow(/NOPERM/);
    await expect(gateway.keys('*')).rejects.toThrow(/NOPERM/);
    await expect(gateway.flushall()).rejects.toThrow(/NOPERM/);
  });

  it.each(['catalog-service', 'collections-service'])(
    '%s: two replicas share the replay guard, under its own prefix only',
    async (service) => {
      const user = `skills-${service}`;
      const [a, b] = [0, 1].map(
        () => new RedisReplayGuard({ url: as(user), logger, prefix: replayGuardPrefix(service) }),
      );
      closing.push(a as RedisReplayGuard, b as RedisReplayGuard);
      expect(await Promise.all([a?.ready(5_000), b?.ready(5_000)])).toEqual([true, true]);
      const jti = randomUUID();
      const expiresAt = Date.now() + 5_000;
      expect(await a?.firstUse(jti, expiresAt, 'POST')).toBe(true);
      // the other replica has not seen it in memory: only Redis can refuse it
      expect(await b?.firstUse(jti, expiresAt, 'POST')).toBe(false);
      expect(warnings).toEqual([]);

      const other = service === 'catalog-service' ? 'collections-service' : 'catalog-service';
      const client = rawAs(user);
      await expect(client.set(`${replayGuardPrefix(other)}${jti}`, '1', 'PX', 1_000, 'NX')).rejects.toThrow(/NOPERM/);
      await expect(client.call('EVAL', 'return 1', '0')).rejects.toThrow(/NOPERM/);
      await expect(client.get(`${replayGuardPrefix(service)}${jti}`)).rejects.toThrow(/NOPERM/);
    },
  );
});
