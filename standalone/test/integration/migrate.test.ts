// @store-specific the migrations
import { QueryTypes } from 'sequelize';
import { createSequelize } from '@skills/common';
import { createTestDatabase, type TestDatabase, silentLogger } from '@skills/common/testing';
import { migrateAll, SCHEMAS } from '../../src/migrate';

describe("migrateAll (the image's `migrate` command)", () => {
  let db: TestDatabase;
  const logger = silentLogger('migrate-test');

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('brings the three schemas up to date, then finds nothing left to apply', async () => {
    const first = await migrateAll(db.url, logger);
    expect(Object.keys(first).sort()).toEqual(['catalog', 'collections', 'gateway']);
    for (const { schema, migrations } of SCHEMAS) expect(first[schema]).toEqual(migrations.map((m) => m.id));

    const sequelize = createSequelize({ url: db.url, poolMax: 1 });
    try {
      for (const { schema, migrations } of SCHEMAS) {
        const rows = await sequelize.query<{ id: string }>(`SELECT id FROM "${schema}".schema_migrations ORDER BY id`, {
          type: QueryTypes.SELECT,
        });
        expect(rows.map((r) => r.id).sort()).toEqual(migrations.map((m) => m.id).sort());
      }
    } finally {
      await sequelize.close();
    }

    expect(await migrateAll(db.url, logger)).toEqual({ gateway: [], collections: [], catalog: [] });
  });
});
