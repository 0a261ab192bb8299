// @store-specific reindex jobs recorded in Postgres and shared by replicas
/**
 * The reindex admin routes and the job runner behind them, jobs recorded in
 * Postgres and shared by replicas, with a small hand-written engine whose
 * rebuild the test can hold open.
 */
import express from 'express';
import request from 'supertest';
import type { Sequelize } from 'sequelize';
import { createTestDatabase, eventually, type TestDatabase, silentLogger } from '@skills/common/testing';
import {
  createSequelize,
  runMigrations,
  errorHandler,
  requestContext,
  requireAdmin,
  requirePrincipal,
  type CatalogItemState,
  type Principal,
} from '@skills/common';
import type { ReindexProgress, SearchEngine } from '../../../src/engines/search-engine';
import { KEYS } from '../../support/gateway-key-pair';
import { reindexRoutes } from '../../../src/http/reindex.routes';
import { ReindexJobs } from '../../../src/reindex/reindex.job';
import { ABANDONED_REASON, ReindexJobRepository } from '../../../src/reindex/reindex-job.repository';
import { CATALOG_SCHEMA, catalogMigrations } from '../../../src/store/migrations';

const STALE_AFTER_MS = 60_000;

const signer = KEYS.signer();
const logger = silentLogger();

/** Consumes the source like a real engine; `hold` keeps the rebuild open until released. */
class GatedEngine implements Pick<SearchEngine, 'reindex'> {
  failWith: Error | undefined;
  private release: () => void = () => {};
  private gate: Promise<void> = Promise.resolve();

  hold(): void {
    this.gate = new Promise((resolve) => (this.release = resolve));
  }
  open(): void {
    this.release();
  }

  async reindex(
    source: AsyncIterable<CatalogItemState[]>,
    onProgress?: (p: ReindexProgress) => void,
  ): Promise<ReindexProgress> {
    let indexed = 0;
    for await (const page of source) {
      indexed += page.length;
      onProgress?.({ indexed });
      await this.gate;
    }
    if (this.failWith) throw this.failWith;
    return { indexed };
  }
}

async function* threePages(): AsyncIterable<CatalogItemState[]> {
  const one = { id: 'x' } as CatalogItemState;
  yield [one, one];
  yield [one];
}

/** One catalog replica: its engine, its job runner and its app, over the shared database. */
interface Replica {
  engine: GatedEngine;
  jobs: ReindexJobs;
  app: express.Express;
}

let db: TestDatabase;
let sequelize: Sequelize;
let replicas: Replica[];
let engine: GatedEngine;
let jobs: ReindexJobs;
let app: express.Express;

function replica(): Replica {
  const gated = new GatedEngine();
  const runner = new ReindexJobs({
    engine: gated as unknown as SearchEngine,
    source: () => threePages(),
    store: new ReindexJobRepository(sequelize, STALE_AFTER_MS),
    logger,
    progressMs: 10,
  });
  const replicaApp = express();
  replicaApp.use(requestContext());
  replicaApp.use('/admin/v1', requirePrincipal(KEYS.verifier('catalog-service'), logger), requireAdmin());
  replicaApp.use(reindexRoutes(runner));
  replicaApp.use(errorHandler(logger));
  const made = { engine: gated, jobs: runner, app: replicaApp };
  replicas.push(made);
  return made;
}

function callOn(
  target: express.Express,
  method: 'get' | 'post' | 'put',
  path: string,
  principal: Principal = { kind: 'admin' },
) {
  return request(target)
    [method](path)
    .set('x-skills-principal', signer.sign(principal, 'catalog-service', method, path));
}

function call(method: 'get' | 'post' | 'put', path: string, principal: Principal = { kind: 'admin' }) {
  return callOn(app, method, path, principal);
}

beforeAll(async () => {
  db = await createTestDatabase();
  sequelize = createSequelize({ url: db.url, poolMax: 4 });
  await runMigrations(sequelize, CATALOG_SCHEMA, catalogMigrations);
}, 120_000);

afterAll(async () => {
  await sequelize?.close();
  await db?.drop();
});

beforeEach(async () => {
  await sequelize.query('DELETE FROM catalog.reindex_jobs');
  replicas = [];
  ({ engine, jobs, app } = replica());
});

afterEach(async () => {
  for (const r of replicas) {
    r.engine.open();
    await r.jobs.close();
  }
});

describe('POST /admin/v1/reindex', () => {
  it('answers 202 with the running job and where to poll it; the job finishes with its count', async () => {
    const res = await call('post', '/admin/v1/reindex');
    expect(res.status).toBe(202);
    const job = res.body.data.job;
    expect(job).toEqual({ id: expect.any(String), status: 'running', indexed: 0, startedAt: expect.any(String) });
    expect(res.headers.location).toBe(`/admin/v1/reindex/${job.id}`);

    await jobs.idle();
    const polled = await call('get', `/admin/v1/reindex/${job.id}`);
    expect(polled.status).toBe(200);
    expect(polled.body.data.job).toMatchObject({
      id: job.id,
      status: 'succeeded',
      indexed: 3,
      finishedAt: expect.any(String),
    });
  });

  it('refuses a second reindex while one runs, and shows the progress so far', async () => {
    engine.hold();
    const first = (await call('post', '/admin/v1/reindex')).body.data.job;
    const second = await call('post', '/admin/v1/reindex').set('accept-language', 'fr');
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ error: `Une réindexation est déjà en cours (tâche ${first.id})` });

    await eventually(async () => {
      const polled = await call('get', `/admin/v1/reindex/${first.id}`);
      expect(polled.body.data.job).toMatchObject({ status: 'running', indexed: 2 });
      return true;
    });

    engine.open();
    await jobs.idle();
    expect((await call('post', '/admin/v1/reindex')).status).toBe(202);
  });

  it('records a failed job with its reason and accepts a new one', async () => {
    engine.failWith = new Error('Elasticsearch refused 1 item(s)');
    const job = (await call('post', '/admin/v1/reindex')).body.data.job;
    await jobs.idle();
    const polled = await call('get', `/admin/v1/reindex/${job.id}`);
    expect(polled.body.data.job).toMatchObject({
      status: 'failed',
      indexed: 3,
      error: 'Elasticsearch refused 1 item(s)',
    });
    expect((await call('post', '/admin/v1/reindex')).status).toBe(202);
  });

  it('is for admins only', async () => {
    const account: Principal = {
      kind: 'account',
      accountId: '00000000-0000-4000-8000-000000000001',
      plan: 'pro',
      keyId: 'k',
    };
    expect((await call('post', '/admin/v1/reindex', account)).status).toBe(403);
    expect((await request(app).post('/admin/v1/reindex')).status).toBe(401);
  });

  it('answers 405 naming the allowed method', async () => {
    const res = await call('put', '/admin/v1/reindex');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describe('reindex jobs across replicas', () => {
  it('shows a job started on one replica, with its progress, from another', async () => {
    const other = replica();
    engine.hold();
    const job = (await call('post', '/admin/v1/reindex')).body.data.job;
    await eventually(async () => {
      const polled = await callOn(other.app, 'get', `/admin/v1/reindex/${job.id}`);
      expect(polled.status).toBe(200);
      expect(polled.body.data.job).toMatchObject({ id: job.id, status: 'running', indexed: 2 });
      return true;
    });
    engine.open();
    await jobs.idle();
    const done = await callOn(other.app, 'get', `/admin/v1/reindex/${job.id}`);
    expect(done.body.data.job).toMatchObject({ status: 'succeeded', indexed: 3, finishedAt: expect.any(String) });
  });

  it('refuses a reindex on another replica while one runs anywhere', async () => {
    const other = replica();
    engine.hold();
    const first = (await call('post', '/admin/v1/reindex')).body.data.job;
    const second = await callOn(other.app, 'post', '/admin/v1/reindex');
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ error: `A reindex is already running (job ${first.id})` });
  });

  it('reports a job whose replica died as failed and lets a new one start', async () => {
    const orphan = '00000000-0000-4000-8000-0000000000aa';
    await sequelize.query(
      `INSERT INTO catalog.reindex_jobs (id, status, indexed, started_at, heartbeat_at)
       VALUES ($1, 'running', 40, now() - interval '10 minutes', now() - interval '5 minutes')`,
      { bind: [orphan] },
    );
    const polled = await call('get', `/admin/v1/reindex/${orphan}`);
    expect(polled.body.data.job).toMatchObject({
      id: orphan,
      status: 'failed',
      indexed: 40,
      error: ABANDONED_REASON,
      finishedAt: expect.any(String),
    });
    expect((await call('post', '/admin/v1/reindex')).status).toBe(202);
  });
});

describe('GET /admin/v1/reindex/:jobId', () => {
  it('answers 404 for an unknown job and for an id that is not one', async () => {
    const unknown = await call('get', '/admin/v1/reindex/00000000-0000-4000-8000-000000000009');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Reindex job not found' });
    expect((await call('get', '/admin/v1/reindex/latest')).status).toBe(404);
  });
});
