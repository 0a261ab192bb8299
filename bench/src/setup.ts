/**
 * Loads the system under test through its public paths: the catalog through
 * the admin NDJSON import, accounts, API keys and collections through the
 * admin and public APIs, exactly as an operator and users would.
 */
import { Client } from 'pg';
import { catalogItem, ndjson } from './catalog-generator';
import type { ImportResult } from './stats';

export async function call<T>(base: string, token: string, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
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
export async function createUsers(gateway: string, adminToken: string, accounts: number, collectionsEach: number): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let a = 0; a < accounts; a++) {
    const { account } = await call<{ account: { id: string } }>(gateway, adminToken, 'POST', '/admin/v1/accounts', {
      email: `bench-${a}-${Date.now()}@bench.example`,
      name: `Bench user ${a}`,
      plan: 'pro',
    });
    const { apiKey } = await call<{ apiKey: { key: string } }>(gateway, adminToken, 'POST', `/admin/v1/accounts/${account.id}/api-keys`, {
      name: 'bench',
    });
    const collectionIds: string[] = [];
    for (let k = 0; k < collectionsEach; k++) {
      const { collection } = await call<{ collection: { id: string } }>(gateway, apiKey.key, 'POST', '/api/v1/me/collections', {
        name: `Bench ${k}`,
        description: 'Collection of the load benchmark',
      });
      collectionIds.push(collection.id);
    }
    users.push({ accountId: account.id, apiKey: apiKey.key, collectionIds });
  }
  return users;
}

/** Drafts never reach the read model (no event is published for them): count the active ones only. */
async function indexedCount(db: Client): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM catalog.search_items WHERE status = 'active'");
  return rows[0]?.n ?? 0;
}

/**
 * Imports `items` in requests of `chunk` lines through the gateway, while
 * watching the read model fill: the record rate is items over the import
 * requests' time, the index rate items over the time until the read model
 * held them all (both from the first request).
 */
export async function importCatalog(
  gateway: string,
  adminToken: string,
  databaseUrl: string,
  items: number,
  chunk: number,
  progress: (text: string, done: boolean) => void,
): Promise<ImportResult> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const before = await indexedCount(db);
    // Bodies are built before the clock starts: generating text is not the system's work.
    const bodies: string[] = [];
    for (let from = 0; from < items; from += chunk) bodies.push(ndjson(from, Math.min(items, from + chunk)));
    // Generating a large catalog blocks the event loop for a while: keep-alive sockets the
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
    const recordSec = (performance.now() - started) / 1000;
    let active = 0;
    for (let i = 0; i < items; i++) if (catalogItem(i).status === 'active') active++;
    let indexed = (await indexedCount(db)) - before;
    const deadline = Date.now() + 600_000;
    while (indexed < active && Date.now() < deadline) {
      progress(`import: indexing ${indexed}/${active} active items`, false);
      await new Promise((r) => setTimeout(r, 50));
      indexed = (await indexedCount(db)) - before;
    }
    if (indexed < active) throw new Error(`only ${indexed} of ${active} active items were indexed after 10 minutes`);
    const indexSec = (performance.now() - started) / 1000;
    const result = { items, recordPerSec: items / recordSec, indexPerSec: items / indexSec };
    progress(
      `import: ${items} items, record ${result.recordPerSec.toFixed(0)} items/s (${recordSec.toFixed(1)} s), index ${result.indexPerSec.toFixed(0)} items/s (${indexSec.toFixed(1)} s)`,
      true,
    );
    return result;
  } finally {
    await db.end();
  }
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
