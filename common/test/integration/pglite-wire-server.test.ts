// @not-store-specific PGlite itself, whatever store the run names
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    const waiting = Promise.all([
      pool.query('SELECT count(*)::int AS n FROM t WHERE id > $1', [0]),
      pool.query('SELECT $1::text AS v', ['ok']),
    ]);
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

describe('the embedded Postgres is not open to other local users', () => {
  let pg: EmbeddedPostgres;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skills-pg-'));
    pg = await startEmbeddedPostgres({ dataDir: join(dir, 'pgdata') });
  });
  afterAll(async () => {
    await pg?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const connect = async (url: string) => {
    const client = new Client({ connectionString: url });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one;
    } finally {
      await client.end().catch(() => undefined);
    }
  };

  it('asks for the password of this start: none or a wrong one is refused with 28P01', async () => {
    const url = new URL(pg.url);
    expect(url.password.length).toBeGreaterThanOrEqual(32);
    expect(await connect(pg.url)).toBe(1);
    url.password = 'wrong';
    await expect(connect(url.toString())).rejects.toMatchObject({ code: '28P01' });
    url.password = '';
    await expect(connect(url.toString())).rejects.toThrow();
    // the refusals left the database serving
    expect(await connect(pg.url)).toBe(1);
  });

  it('listens on loopback and keeps its data directory to its owner', async () => {
    expect(new URL(pg.url).hostname).toBe('127.0.0.1');
    expect((await stat(join(dir, 'pgdata'))).mode & 0o777).toBe(0o700);
  });
});
