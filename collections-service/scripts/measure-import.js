/**
 * Measures POST /admin/v1/skills:import end to end (HTTP, parsing, validation,
 * one transaction) for N items, three rounds (insert, then two updates).
 * Build first (`npx tsc -b collections-service`), then:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node collections-service/scripts/measure-import.js
 * Without DATABASE_URL it runs on an in-memory PGlite. N=20000 changes the size.
 */
const common = require('../../common/dist/index.js');
const { createTestDatabase } = require('../../common/dist/testing/index.js');
const service = require('../dist/index.js');

async function main() {
  const db = await createTestDatabase(process.env.DATABASE_URL);
  const sequelize = common.createSequelize({ url: db.url, poolMax: 4 });
  await common.runMigrations(sequelize, service.COLLECTIONS_SCHEMA, service.collectionsMigrations);
  const secret = 'measure-import-secret-of-at-least-32-chars';
  const app = service.createCollectionsApp({
    sequelize,
    verifier: new common.PrincipalVerifier({ secret }),
    logger: common.createLogger({ service: 'measure', level: 'silent' }),
  });
  const server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  const signer = new common.PrincipalSigner({ secret });
  const n = Number(process.env.N || 10000);
  const path = '/admin/v1/skills:import';
  try {
    for (const round of [1, 2, 3]) {
      const body = Array.from({ length: n }, (_, i) =>
        JSON.stringify({
          slug: `measure-${i}`,
          name: `Item ${i} round ${round}`,
          description: 'A fairly ordinary description of a skill that does something useful. '.repeat(2),
          type: 'skill',
          category: 'bulk',
          tags: ['a', 'b'],
        }),
      ).join('\n');
      const started = process.hrtime.bigint();
      const res = await fetch(`http://127.0.0.1:${server.address().port}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', [common.PRINCIPAL_HEADER]: signer.sign({ kind: 'admin' }, 'POST', path) },
        body,
      });
      const text = await res.text();
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      console.log(`${db.kind} round ${round}: ${res.status} ${text} in ${ms.toFixed(0)} ms = ${Math.round((n / ms) * 1000)} items/s`);
    }
  } finally {
    server.close();
    await sequelize.close();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
