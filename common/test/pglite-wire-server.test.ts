import { Client, Pool } from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '@skills/common';

/**
 * The embedded Postgres is one PGlite session shared by many connections;
 * these are the ways sharing it could go wrong for the services.
 */
describe('PgliteWireServer', () => {
  let pg: EmbeddedPostgres;
  let pool: Pool;
  beforeAll(async () => {
    pg = await startEmbeddedPostgres();
    pool = new Pool({ connectionString: pg.url, max: 8 });
    await pool.query('CREATE TABLE t (id int PRIMARY KEY)');
  });
  afterAll(async () => {
    await pool.end();
    await pg.stop();
  });

  it('keeps parameterised queries of concurrent connections apart', async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => pool.query('SELECT $1::int * 2 AS d, $2::text AS s', [i, `x${i}`])),
    );
    results.forEach((r, i) => expect(r.rows[0]).toEqual({ d: i * 2, s: `x${i}` }));
  });

  it('lets queued connections in only after a transaction ends, even one that failed', async () => {
    const owner = new Client({ connectionString: pg.url });
    await owner.connect();
    await owner.query('BEGIN');
    await owner.query('INSERT INTO t VALUES (1)');
    await expect(owner.query('INSERT INTO t VALUES (1)')).rejects.toThrow(/duplicate key/);
    // Parameterised queries from other connections wait behind the open transaction.
    const waiting = Promise.all([pool.query('SELECT count(*)::int AS n FROM t WHERE id > $1', [0]), pool.query('SELECT $1::text AS v', ['ok'])]);
    await owner.query('ROLLBACK');
    const [count, echo] = await waiting;
    expect(count.rows[0]).toEqual({ n: 0 });
    expect(echo.rows[0]).toEqual({ v: 'ok' });
    await owner.end();
  });

  it('rolls back the transaction of a client that disconnects inside it', async () => {
    const client = new Client({ connectionString: pg.url });
    client.on('error', () => undefined);
    await client.connect();
    await client.query('BEGIN');
    await client.query('INSERT INTO t VALUES (5)');
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM t');
    expect(rows[0]).toEqual({ n: 0 });
  });
});
