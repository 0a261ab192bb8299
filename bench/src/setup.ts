/**
 * Loads the system under test through its public paths: the catalog through
 * the admin NDJSON import, accounts, API keys and collections through the
 * admin and public APIs, exactly as an operator and users would.
 */
import { Client } from 'pg';
import { activeCount } from './catalog';
import { ndjsonBody, type ImportLine } from './import-line';
import { indexDocuments, meaningProgress } from './catalog-metrics';
import type { ImportResult } from './stats';

export async function call<T>(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = contentType;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return (text ? (JSON.parse(text) as { data: T }).data : undefined) as T;
}

export interface BenchUser {
  accountId: string;
  apiKey: string;
  collectionIds: string[];
}

/** `accounts` pro accounts, one API key and `collectionsEach` personal collections each. */
export async function createUsers(
  gateway: string,
  adminToken: string,
  accounts: number,
  collectionsEach: number,
): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let a = 0; a < accounts; a++) {
    const { account } = await call<{ account: { id: string } }>(gateway, adminToken, 'POST', '/admin/v1/accounts', {
      email: `bench-${a}-${Date.now()}@bench.example`,
      name: `Bench user ${a}`,
      plan: 'pro',
    });
    const { apiKey } = await call<{ apiKey: { key: string } }>(
      gateway,
      adminToken,
      'POST',
      `/admin/v1/accounts/${account.id}/api-keys`,
      {
        name: 'bench',
      },
    );
    const collectionIds: string[] = [];
    for (let k = 0; k < collectionsEach; k++) {
      const { collection } = await call<{ collection: { id: string } }>(
        gateway,
        apiKey.key,
        'POST',
        '/api/v1/me/collections',
        {
          name: `Bench ${k}`,
          description: 'Collection of the load benchmark',
        },
      );
      collectionIds.push(collection.id);
    }
    users.push({ accountId: account.id, apiKey: apiKey.key, collectionIds });
  }
  return users;
}

/** What search can find now, relative to start(): how the import knows when all it sent is searchable. */
export interface SearchableCount {
  readonly source: ImportResult['indexSource'];
  start(): Promise<void>;
  /** documents searchable since start() */
  added(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Counts what search can find: catalog-service's index gauge when it exports
 * one (an in-memory index), else the active rows of the Postgres read model
 * (drafts never reach it: no event is published for them). Counts are
 * relative to the first reading, so items already there do not count.
 */
class SearchableCounter implements SearchableCount {
  private db: Client | undefined;
  private metricBefore: number | undefined;
  private dbBefore: number | undefined;
  source: 'metric' | 'database' = 'metric';

  constructor(
    private readonly catalogUrl: string,
    private readonly databaseUrl: string,
  ) {}

  private async rows(): Promise<number> {
    if (!this.db) {
      this.db = new Client({ connectionString: this.databaseUrl });
      await this.db.connect();
    }
    const { rows } = await this.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM catalog.search_items WHERE status = 'active'",
    );
    return rows[0]?.n ?? 0;
  }

  async start(): Promise<void> {
    this.metricBefore = await indexDocuments(this.catalogUrl);
    if (this.metricBefore === undefined) this.dbBefore = await this.rows();
  }

  /** Documents added since start(). */
  async added(): Promise<number> {
    const documents = await indexDocuments(this.catalogUrl);
    if (documents !== undefined) {
      this.source = 'metric';
      return documents - (this.metricBefore ?? 0);
    }
    this.source = 'database';
    this.dbBefore ??= 0;
    return (await this.rows()) - this.dbBefore;
  }

  async close(): Promise<void> {
    await this.db?.end();
  }
}

/** Polls `count` every 50 ms until it reaches `wanted`; throws after `timeoutMs`. */
async function waitUntil(
  count: () => Promise<number>,
  wanted: number,
  label: string,
  progress: (text: string, done: boolean) => void,
  timeoutMs = 600_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let n = await count(); n < wanted; n = await count()) {
    if (Date.now() > deadline) throw new Error(`${label}: only ${n} of ${wanted} after ${timeoutMs / 1000} s`);
    progress(`${label}: ${n}/${wanted}`, false);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The import's line for search by meaning (docs/search.md "Item vectors"):
 * how many items have their vector yet; with `wait`, waits until all have
 * (the quality judgments need them) and notes how long after the import
 * answered. Nothing without a model (the gauges are absent).
 */
async function reportMeaning(
  catalogUrl: string,
  active: number,
  answered: number,
  wait: boolean,
  progress: (text: string, done: boolean) => void,
  result: ImportResult,
): Promise<void> {
  const first = await meaningProgress(catalogUrl);
  if (!first) return;
  progress(`import: searchable by meaning ${first.ready}/${active} (${first.missing} waiting for the model)`, !wait);
  if (!wait) return;
  await waitUntil(
    async () => (await meaningProgress(catalogUrl))?.ready ?? 0,
    active,
    'import: searchable by meaning',
    progress,
    3_600_000,
  );
  result.meaningAfterImportSec = (performance.now() - answered) / 1000;
  progress(
    `import: all searchable by meaning ${result.meaningAfterImportSec.toFixed(1)} s after the import answered`,
    true,
  );
}

/**
 * Imports the catalog in requests of `chunk` lines through the gateway, then
 * waits until search holds every active item: the record rate is items over
 * the import requests' time, the index rate items over the time from the
 * first request until all were searchable, and "searchable after import" the
 * wait after the last import request answered. `counter`: how searchable
 * items are counted (default: catalog-service's gauge, else the read model).
 */
export async function importCatalog(
  gateway: string,
  adminToken: string,
  catalogUrl: string,
  databaseUrl: string,
  lines: readonly ImportLine[],
  chunk: number,
  progress: (text: string, done: boolean) => void,
  counter: SearchableCount = new SearchableCounter(catalogUrl, databaseUrl),
  waitForMeaning = false,
): Promise<ImportResult> {
  try {
    await counter.start();
    const items = lines.length;
    // Bodies are built before the clock starts: serialising is not the system's work.
    const bodies: string[] = [];
    for (let from = 0; from < items; from += chunk) bodies.push(ndjsonBody(lines.slice(from, from + chunk)));
    // Building a large catalog blocks the event loop for a while: keep-alive sockets the
    // gateway closed meanwhile fail on first use, so spend that failure on a health check.
    await fetch(`${gateway}/healthz`).catch(() => fetch(`${gateway}/healthz`));
    const started = performance.now();
    let sent = 0;
    for (const body of bodies) {
      await call(gateway, adminToken, 'POST', '/admin/v1/skills:import', body, 'application/x-ndjson');
      sent = Math.min(items, sent + chunk);
      const s = (performance.now() - started) / 1000;
      progress(`import: ${sent}/${items} items in ${s.toFixed(1)} s (${(sent / s).toFixed(0)} items/s)`, false);
    }
    const answered = performance.now();
    const recordSec = (answered - started) / 1000;
    const active = activeCount(lines);
    await waitUntil(() => counter.added(), active, 'import: searchable', progress);
    const searchable = performance.now();
    const indexSec = (searchable - started) / 1000;
    const result: ImportResult = {
      items,
      recordPerSec: items / recordSec,
      indexPerSec: items / indexSec,
      activeItems: active,
      searchableAfterImportSec: (searchable - answered) / 1000,
      indexSource: counter.source,
    };
    progress(
      `import: ${items} items, record ${result.recordPerSec.toFixed(0)} items/s (${recordSec.toFixed(1)} s), ` +
        `index ${result.indexPerSec.toFixed(0)} items/s (${indexSec.toFixed(1)} s), all searchable ${result.searchableAfterImportSec.toFixed(1)} s after the import answered (${counter.source})`,
      true,
    );
    await reportMeaning(catalogUrl, active, answered, waitForMeaning, progress, result);
    return result;
  } finally {
    await counter.close();
  }
}

/**
 * After a catalog-service restart: waits until its index holds `documents`
 * again (an in-memory index loads at start, maybe after /readyz). Without
 * the index gauge there is nothing to wait for: the read model is in Postgres.
 */
export async function waitIndexLoaded(
  catalogUrl: string,
  documents: number | undefined,
  progress: (text: string, done: boolean) => void,
): Promise<void> {
  if (documents === undefined) return;
  await waitUntil(
    async () => (await indexDocuments(catalogUrl)) ?? documents,
    documents,
    'catalog-service index loading',
    progress,
  );
}

/**
 * Index lag: `writes` sequential admin PUTs, each of a new item with a word
 * nothing else contains; the lag is from sending the PUT to the first search
 * (polled back to back through the gateway) that returns it.
 */
export async function measureIndexLag(
  gateway: string,
  adminToken: string,
  apiKey: string,
  writes: number,
  progress: (text: string, done: boolean) => void,
): Promise<number[]> {
  const samples: number[] = [];
  const run = Date.now().toString(36);
  for (let n = 0; n < writes; n++) {
    const word = `lagprobe${run}x${n}`;
    const started = performance.now();
    await call(gateway, adminToken, 'PUT', `/admin/v1/skills/lag-probe-${run}-${n}`, {
      name: `Lag probe ${word}`,
      description: 'Written by the benchmark to time the search index lag.',
      type: 'skill',
      category: 'testing',
      tags: ['bench'],
    });
    for (;;) {
      const found = await call<{ skills: unknown[] }>(gateway, apiKey, 'GET', `/api/v1/skills?q=${word}&limit=1`);
      // the probe itself: typo tolerance answers the previous probes too (their names are one character away)
      if (found.skills.some((s) => JSON.stringify(s).includes(word))) break;
      if (performance.now() - started > 30_000) throw new Error(`item ${word} not searchable after 30 s`);
    }
    samples.push(performance.now() - started);
    if ((n + 1) % 10 === 0 || n + 1 === writes) progress(`index lag: ${n + 1}/${writes} writes`, false);
  }
  return samples;
}
