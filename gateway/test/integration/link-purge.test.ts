// @store-specific the link repository's batched deletes
/**
 * One-time links and OpenID Connect flows past their time are deleted in
 * batches (store/link.repository.ts, domain/sign-in/periodic-purge.ts); live ones,
 * and the used link of a workspace invitation until it expires, stay.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import { createSequelize } from '@skills/common';
import type { LinkPurpose } from '../../src/domain/sign-in/credentials';
import { LinkRepository, USED_LINK_KEPT_MS, linkPurgeTasks } from '../../src/store/link.repository';
import { PeriodicPurge } from '../../src/domain/sign-in/periodic-purge';
import { startHarness, type Harness } from './harness';
import { silentLogger } from '@skills/common/testing';

const HOUR = 3_600_000;

describe('purging one-time links and sign-in flows', () => {
  let h: Harness;
  let db: Sequelize;
  let links: LinkRepository;
  const now = Date.now();
  beforeAll(async () => {
    h = await startHarness();
    db = createSequelize({ url: h.db.url, poolMax: 1 });
    links = new LinkRepository(db);
  }, 90_000);
  afterAll(async () => {
    await db?.close();
    await h?.close();
  }, 30_000);

  async function link(
    name: string,
    purpose: LinkPurpose,
    expiresIn: number,
    usedAgo?: number,
    workspaceInvitationId?: string,
  ): Promise<[string, Buffer]> {
    const tokenHash = randomBytes(32);
    await links.insert({
      tokenHash,
      purpose,
      accountId: null,
      now: new Date(now - 2 * USED_LINK_KEPT_MS),
      expiresAt: new Date(now + expiresIn),
      workspaceInvitationId,
    });
    if (usedAgo !== undefined)
      await db.query(`UPDATE gateway.one_time_links SET used_at = :at WHERE token_hash = :hash`, {
        replacements: { at: new Date(now - usedAgo), hash: tokenHash },
      });
    return [name, tokenHash];
  }
  const left = async (
    table: 'one_time_links' | 'oidc_flows',
    column: string,
    named: [string, Buffer][],
  ): Promise<string[]> => {
    const rows = await db.query<{ h: Buffer }>(`SELECT ${column} AS h FROM gateway.${table}`, {
      type: QueryTypes.SELECT,
    });
    const kept = new Set(rows.map((r) => Buffer.from(r.h).toString('hex')));
    return named.filter(([, hash]) => kept.has(hash.toString('hex'))).map(([name]) => name);
  };
  const purge = () =>
    new PeriodicPurge({
      tasks: linkPurgeTasks(links),
      logger: silentLogger('purge-test'),
      intervalMs: 60_000,
      batchSize: 2,
      now: () => now,
    });

  it('deletes expired links and links used over a day ago, in batches; keeps live ones and a used workspace invitation link until it expires', async () => {
    const named = [
      await link('expired sign-in', 'sign-in', -HOUR),
      await link('expired reset', 'password-reset', -1),
      await link('expired invitation', 'invitation', -HOUR, undefined, randomUUID()),
      await link('used two days ago', 'email-verification', HOUR, 2 * USED_LINK_KEPT_MS),
      await link('used sign-up invitation', 'invitation', HOUR, 2 * USED_LINK_KEPT_MS),
      await link('live', 'sign-in', HOUR),
      await link('used an hour ago', 'password-reset', HOUR, HOUR),
      await link('used workspace invitation', 'invitation', HOUR, 2 * USED_LINK_KEPT_MS, randomUUID()),
    ];
    // five dead rows with batches of two: the pass goes on until a batch comes back short
    expect(await purge().pruneOnce()).toBe(5);
    expect(await left('one_time_links', 'token_hash', named)).toEqual([
      'live',
      'used an hour ago',
      'used workspace invitation',
    ]);
  });

  it('deletes sign-in flows past their 10 minutes and keeps those in flight', async () => {
    const flow = async (name: string, expiresIn: number): Promise<[string, Buffer]> => {
      const stateHash = randomBytes(32);
      await links.insertFlow({ stateHash, codeVerifier: 'v', nonce: 'n', expiresAt: new Date(now + expiresIn) });
      return [name, stateHash];
    };
    const named = [await flow('abandoned', -HOUR), await flow('just expired', -1), await flow('in flight', 60_000)];
    expect(await purge().pruneOnce()).toBe(2);
    expect(await left('oidc_flows', 'state_hash', named)).toEqual(['in flight']);
  });
});
