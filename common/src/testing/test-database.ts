import { createScratchDatabase } from '../db/scratch-database';
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
  const scratch = await createScratchDatabase(serverUrl, 'skills_test');
  return { url: scratch.url, kind: 'postgres', drop: scratch.drop };
}
