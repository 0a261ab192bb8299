import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createScratchDatabase } from '../db/scratch-database';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded-postgres';

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
    const embedded = await startFreshPglite();
    return { url: embedded.url, kind: 'pglite', drop: () => embedded.stop() };
  }
  const scratch = await createScratchDatabase(serverUrl, 'skills_test');
  return { url: scratch.url, kind: 'postgres', drop: scratch.drop };
}

/**
 * initdb is most of a PGlite start (seconds; far more on a busy machine): in
 * a jest run (jest.global-setup.cjs names its folder) the first suite dumps
 * its fresh cluster there and every later one starts from that dump, an
 * identical empty cluster. Outside such a run, every start runs initdb.
 */
async function startFreshPglite(runDir = process.env.SKILLS_TEST_RUN_DIR): Promise<EmbeddedPostgres> {
  const file = runDir && join(runDir, 'pglite-fresh-cluster.tar');
  if (file && existsSync(file)) return startEmbeddedPostgres({ initialData: new Blob([await readFile(file)]) });
  const embedded = await startEmbeddedPostgres();
  if (file) {
    // written aside, then renamed: a suite of another worker never reads half a dump; named per start, as one
    // suite may start two databases at once (two gateways sharing Redis) and both find no dump yet
    const partial = `${file}.${process.pid}.${randomUUID()}`;
    await writeFile(partial, Buffer.from(await (await embedded.dump()).arrayBuffer()));
    await rename(partial, file);
  }
  return embedded;
}
