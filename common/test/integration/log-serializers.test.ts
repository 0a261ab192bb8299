// @store-specific a real failing query's error as each store reports it
/**
 * Database errors in logs: a real failing query on the test database (PGlite
 * unless DATABASE_URL), logged the ways the code logs errors, must leave
 * neither the bound values nor the SQL text (with its inlined values) in the
 * line, while the message and the constraint stay for the operator.
 */
import { Writable } from 'node:stream';
import { createLogger, createSequelize, runMigrations, ServiceUnavailableError } from '@skills/common';
import { createTestDatabase, type TestDatabase } from '@skills/common/testing';
import type { Sequelize } from 'sequelize';

const EMAIL = 'alice.secret@example.com';
const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA';

function capture(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, stream };
}

async function failure(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (err) {
    return err as Error;
  }
  throw new Error('the query was expected to fail');
}

describe('the logger and database errors', () => {
  let db: TestDatabase;
  let sequelize: Sequelize;
  beforeAll(async () => {
    db = await createTestDatabase();
    sequelize = createSequelize({ url: db.url, poolMax: 2 });
    await runMigrations(sequelize, 'logs', [
      {
        id: '001',
        up: 'CREATE TABLE "logs".people (email text NOT NULL, hash text NOT NULL, age int NOT NULL CONSTRAINT age_positive CHECK (age > 0))',
      },
    ]);
  }, 60_000);
  afterAll(async () => {
    await sequelize?.close();
    await db?.drop();
  });

  const queries: Array<[string, () => Promise<unknown>]> = [
    [
      'bound values',
      () =>
        sequelize.query('INSERT INTO logs.people (email, hash, age) VALUES ($1, $2, $3)', { bind: [EMAIL, HASH, -1] }),
    ],
    [
      'values inlined in the SQL text',
      () =>
        sequelize.query('INSERT INTO logs.people (email, hash, age) VALUES (:email, :hash, -1)', {
          replacements: { email: EMAIL, hash: HASH },
        }),
    ],
  ];

  it.each(queries)('keeps %s out of the log line, whether logged as err, error or a cause', async (_what, run) => {
    const err = await failure(run);
    // the error does carry them: otherwise this test would prove nothing
    expect(
      JSON.stringify({ sql: (err as { sql?: string }).sql, parameters: (err as { parameters?: unknown }).parameters }),
    ).toContain(EMAIL);

    const { lines, stream } = capture();
    const logger = createLogger({ service: 'test', destination: stream });
    logger.error({ err }, 'query failed');
    logger.error({ error: err }, 'query failed');
    const wrapped = new ServiceUnavailableError('upstream.unavailable', {}, { cause: err });
    logger.error({ err: wrapped, cause: wrapped.cause }, 'wrapped');

    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).not.toContain(EMAIL);
      expect(line).not.toContain(HASH);
      expect(line).not.toContain('INSERT INTO');
      expect(line).toContain('violates check constraint');
    }
    const first = JSON.parse(lines[0] ?? '{}') as {
      err: { sql: string; original: { detail: string; constraint: string } };
    };
    expect(first.err).toMatchObject({
      sql: '[redacted]',
      original: { detail: '[redacted]', constraint: 'age_positive' },
    });
    // the live error is untouched: code that handles it after the log still sees it whole
    expect((err as { sql?: string }).sql).toContain('INSERT INTO');
  });
});
