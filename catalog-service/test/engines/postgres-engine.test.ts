import type { Sequelize } from 'sequelize';
import pino from 'pino';
import { createSequelize, runMigrations } from '@skills/common';
import { createTestDatabase, type TestDatabase } from '@skills/common/testing';
import { PostgresEngine } from '../../src/engines/postgres/postgres-engine';
import { catalogMigrations } from '../../src/store/migrations';
import { describeSearchEngineConformance } from './search-engine.conformance';

let db: TestDatabase;
let sequelize: Sequelize;

beforeAll(async () => {
  db = await createTestDatabase();
  sequelize = createSequelize({ url: db.url });
  await runMigrations(sequelize, 'catalog', catalogMigrations);
});

afterAll(async () => {
  await sequelize.close();
  await db.drop();
});

describeSearchEngineConformance('PostgresEngine', async () => {
  await sequelize.query('TRUNCATE catalog.search_items');
  return { engine: new PostgresEngine({ sequelize, logger: pino({ level: 'silent' }) }), teardown: async () => {} };
});
