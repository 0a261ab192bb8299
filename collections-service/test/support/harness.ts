/**
 * A collections-service app on a fresh test database (PGlite, or a new
 * database on the server in DATABASE_URL), with helpers that sign the
 * principal header the way the gateway does.
 */
import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import type { Sequelize } from 'sequelize';
import {
  PRINCIPAL_HEADER,
  bodyDigest,
  createSequelize,
  runMigrations,
  STREAMED_BODY,
  type Principal,
  type SignedBody,
} from '@skills/common';
import { createTestDatabase, testPrincipalKeys, type TestDatabase, silentLogger } from '@skills/common/testing';
import {
  COLLECTIONS_SCHEMA,
  collectionsMigrations,
  createCollectionsApp,
  type CollectionsAppDeps,
} from '@skills/collections-service';

/** The gateway's key pair in these tests: headers are signed with it, the service holds its public half. */
export const KEYS = testPrincipalKeys();
export const AUDIENCE = 'collections-service';
export const IMPORT_PATH = '/admin/v1/skills:import';
export const ADMIN: Principal = { kind: 'admin' };
/** PGlite compiles its WebAssembly at start; on a busy CI machine that takes a while. */
export const START_TIMEOUT_MS = 120_000;

export function account(accountId: string = randomUUID()): Principal & { kind: 'account' } {
  return { kind: 'account', accountId, plan: 'pro', keyId: randomUUID() };
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Harness {
  app: Express;
  sequelize: Sequelize;
  /** the test database's URL, for a second connection of the test's own */
  databaseUrl: string;
  /** the principal header the gateway would send for this method and url (and body digest: none by default) */
  sign(principal: Principal, method: Method, url: string, body?: SignedBody): string;
  /** a request signed for `principal`, bound to this method and url, and to the body `.send()` is given */
  call(principal: Principal, method: Method, url: string): request.Test;
  /** rows of a query, for asserting on what was stored */
  rows<T extends object>(sql: string, bind?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** App settings a suite sets (the rest are the app's defaults). */
export type HarnessOptions = Pick<CollectionsAppDeps, 'reportsPerAccountPerDay' | 'webhookTargets' | 'webhookResolver'>;

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const db: TestDatabase = await createTestDatabase();
  const sequelize = createSequelize({ url: db.url, poolMax: 4 });
  await runMigrations(sequelize, COLLECTIONS_SCHEMA, collectionsMigrations);
  const logger = silentLogger('collections-test');
  const app = createCollectionsApp({ ...options, sequelize, verifier: KEYS.verifier(AUDIENCE), logger });
  const signer = KEYS.signer();
  return {
    app,
    sequelize,
    databaseUrl: db.url,
    sign: (principal, method, url, body) => signer.sign(principal, AUDIENCE, method, url, body),
    call(principal, method, url) {
      const test = request(app)
        [method](url)
        .set(PRINCIPAL_HEADER, signer.sign(principal, AUDIENCE, method, url));
      // As the gateway does: the header covers the exact bytes sent (superagent JSON-encodes objects with
      // JSON.stringify), except the import's, which the gateway streams (gateway/src/http/proxy/route-table.ts).
      const send = test.send.bind(test);
      test.send = (body?: string | object) => {
        const bytes = typeof body === 'string' ? body : JSON.stringify(body);
        const signed = url === IMPORT_PATH ? STREAMED_BODY : bodyDigest(bytes);
        test.set(PRINCIPAL_HEADER, signer.sign(principal, AUDIENCE, method, url, signed));
        return send(body);
      };
      return test;
    },
    async rows<T extends object>(sql: string, bind: unknown[] = []) {
      const [rows] = await sequelize.query(sql, { bind });
      return rows as T[];
    },
    async close() {
      await sequelize.close();
      await db.drop();
    },
  };
}

/** Creates (or updates) an active public skill through the admin route. */
export async function putSkill(h: Harness, slug: string, fields: Record<string, unknown> = {}): Promise<void> {
  const res = await h
    .call(ADMIN, 'put', `/admin/v1/skills/${slug}`)
    .send({ name: `Skill ${slug}`, description: `About ${slug}`, type: 'skill', category: 'testing', ...fields });
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`putSkill ${slug}: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function createPrivateSkill(h: Harness, accountId: string, name: string): Promise<string> {
  const res = await h.call(ADMIN, 'post', `/admin/v1/accounts/${accountId}/private-skills`).send({ name });
  if (res.status !== 201) throw new Error(`private skill: ${res.status}`);
  return (res.body as { data: { skill: { id: string } } }).data.skill.id;
}
