import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../db/embedded-postgres';

export interface TestDatabase {
  url: string;
  /** 'pglite' or 'postgres' — which one this suite runs on */
  kind: 'pglite' | 'postgres';
  drop(): Promise<void>;
}

/**
 * A database of its own for one test suite: a fresh database on the server in
 * `DATABASE_URL` when set (dropped afterwards), otherwise an in-memory PGlite.
 */
export async function createTestDatabase(serverUrl = process.env.DATABASE_URL): Promise<TestDatabase> {
  if (!serverUrl) {
    const embedded = await startEmbeddedPostgres();
    return { url: embedded.url, kind: 'pglite', drop: () => embedded.stop() };
  }
  const name = `skills_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    kind: 'postgres',
    async drop() {
      const c = new Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
