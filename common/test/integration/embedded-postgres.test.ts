// @not-store-specific PGlite itself, whatever store the run names
import { QueryTypes } from 'sequelize';
import { createSequelize, runMigrations } from '@skills/common';
import { createTestDatabase, type TestDatabase } from '@skills/common/testing';

describe('test database + migrations', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('runs migrations once, with pg_trgm and snapshot functions available', async () => {
    const sequelize = createSequelize({ url: db.url, poolMax: 4 });
    const migrations = [
      {
        id: '001',
        up: 'CREATE EXTENSION IF NOT EXISTS pg_trgm; CREATE TABLE "smoke".t (id int primary key, name text, tx xid8 NOT NULL DEFAULT pg_current_xact_id())',
      },
    ];
    expect(await runMigrations(sequelize, 'smoke', migrations)).toEqual(['001']);
    expect(await runMigrations(sequelize, 'smoke', migrations)).toEqual([]);
    await sequelize.query(`INSERT INTO smoke.t (id, name) VALUES (1, 'hello')`);
    // What the event log relies on: the writer's xid recorded, snapshot functions present.
    // (Whether the row is below xmin depends on other sessions of a shared server.)
    const rows = await sequelize.query<{ sim: number; xidRecorded: boolean }>(
      `SELECT similarity(name, 'helo') AS sim, tx > '0'::xid8 AND pg_snapshot_xmin(pg_current_snapshot()) > '0'::xid8 AS "xidRecorded" FROM smoke.t`,
      { type: QueryTypes.SELECT },
    );
    expect(rows[0]?.sim).toBeGreaterThan(0.3);
    expect(rows[0]?.xidRecorded).toBe(true);
    await sequelize.close();
  });
});
