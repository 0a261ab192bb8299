/**
 * Mixed traffic of one soak worker (one account, its own key): searches,
 * reads, collection creates and deletes, PATCH add/remove, admin skill
 * upserts. Every acknowledged write is written into the ledger, which the
 * final check compares with what the API then answers. A worker owns its
 * collections and its skill slugs, so "the last acknowledged write" is well
 * defined even though the workers run concurrently.
 */

export interface Ledger {
  /** collection id → its owner's key and the slugs the last acknowledged PATCH (or the create) left, or that it was deleted */
  collections: Map<string, { owner: string; slugs: string[]; deleted?: true }>;
  /** skill slug → name of the last acknowledged upsert */
  skills: Map<string, string>;
}

export interface Recorder {
  record(ms: number, ok: boolean, what: string): void;
}

export interface WorkerOptions {
  url: string;
  adminToken: string;
  key: string;
  index: number;
  /** slugs of the public catalog to add and remove */
  catalog: readonly string[];
  ledger: Ledger;
  recorder: Recorder;
  /** pause between two requests of this worker: keeps each key under its per-minute budget */
  pauseMs: number;
  until: number;
}

const WORDS = ['lint', 'docker', 'test', 'review', 'sql', 'deploy', 'format', 'secure', 'api', 'docs'];
const MAX_OWN_COLLECTIONS = 40;
const SLUGS_PER_WORKER = 5;

// `any` in this file: response bodies of several shapes, read field by field where they are used.
/* eslint-disable @typescript-eslint/no-explicit-any */
async function call(
  o: WorkerOptions,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const started = performance.now();
  let status = 0;
  let json: any;
  try {
    const response = await fetch(`${o.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    status = response.status;
    json = await response.json().catch(() => undefined);
  } finally {
    const ok = status >= 200 && status < 300;
    o.recorder.record(
      performance.now() - started,
      ok,
      ok ? '' : `${method} ${path.replace(/[0-9a-f-]{36}/g, '{id}')} → ${status || 'network error'}`,
    );
  }
  return { status, json };
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

export async function runWorker(o: WorkerOptions): Promise<void> {
  const mine: string[] = [];
  let revision = 0;
  const slugsOf = (json: any): string[] =>
    (json.data.collection.skills as Array<{ slug?: string }>)
      .filter((s) => s.slug)
      .map((s) => s.slug as string)
      .sort();

  while (Date.now() < o.until) {
    const roll = Math.random();
    if (roll < 0.4) {
      await call(o, 'GET', `/api/v1/skills?q=${pick(WORDS)}&limit=20`, o.key);
    } else if (roll < 0.5) {
      await call(o, 'GET', '/api/v1/me/collections', o.key);
    } else if (roll < 0.58 || mine.length === 0) {
      if (mine.length >= MAX_OWN_COLLECTIONS) {
        const id = mine.shift() as string;
        const r = await call(o, 'DELETE', `/api/v1/me/collections/${id}`, o.key);
        if (r.status === 200) o.ledger.collections.set(id, { owner: o.key, slugs: [], deleted: true });
      } else {
        const r = await call(o, 'POST', '/api/v1/me/collections', o.key, { name: `Soak w${o.index} #${revision++}` });
        if (r.status === 201) {
          mine.push(r.json.data.collection.id);
          o.ledger.collections.set(r.json.data.collection.id, { owner: o.key, slugs: [] });
        }
      }
    } else if (roll < 0.88) {
      const id = pick(mine);
      const current = o.ledger.collections.get(id)?.slugs ?? [];
      const body =
        current.length > 0 && Math.random() < 0.4 ? { removeSkillSlug: pick(current) } : { skillSlug: pick(o.catalog) };
      const r = await call(o, 'PATCH', `/api/v1/me/collections/${id}`, o.key, body);
      if (r.status === 200) o.ledger.collections.set(id, { owner: o.key, slugs: slugsOf(r.json) });
    } else {
      const slug = `soak-w${o.index}-s${Math.floor(Math.random() * SLUGS_PER_WORKER)}`;
      const name = `Soak skill ${slug} rev ${revision++}`;
      const r = await call(o, 'PUT', `/admin/v1/skills/${slug}`, o.adminToken, {
        name,
        description: 'written by the soak run',
        category: 'soak',
      });
      if (r.status === 200 || r.status === 201) o.ledger.skills.set(slug, name);
    }
    await new Promise((ok) => setTimeout(ok, o.pauseMs));
  }
}

/** Every acknowledged write is there: collections with their last skills (or gone), skills searchable with their last name. */
export async function verifyLedger(url: string, ledger: Ledger, timeoutMs: number): Promise<string[]> {
  const problems: string[] = [];
  for (const [id, expected] of ledger.collections) {
    const r = await fetch(`${url}/api/v1/me/collections/${id}`, {
      headers: { authorization: `Bearer ${expected.owner}` },
    });
    const json: any = await r.json();
    if (expected.deleted) {
      if (r.status !== 404) problems.push(`collection ${id}: deleted, yet ${r.status}`);
      continue;
    }
    if (r.status !== 200) {
      problems.push(`collection ${id}: ${r.status}`);
      continue;
    }
    const slugs = (json.data.collection.skills as Array<{ slug?: string }>)
      .filter((s) => s.slug)
      .map((s) => s.slug as string)
      .sort();
    if (slugs.join() !== expected.slugs.join())
      problems.push(`collection ${id}: [${slugs}] instead of [${expected.slugs}]`);
  }
  const anyKey = [...ledger.collections.values()][0]?.owner;
  // Search is fed by the event log: wait (bounded) until the index has caught up with the last upserts.
  const deadline = Date.now() + timeoutMs;
  let missing: string[];
  do {
    const r = await fetch(`${url}/api/v1/skills?category=soak&limit=50`, {
      headers: { authorization: `Bearer ${anyKey}` },
    });
    const json: any = await r.json();
    const found = new Map<string, string>(
      (json.data?.skills ?? []).map((s: { slug: string; name: string }) => [s.slug, s.name]),
    );
    missing = [...ledger.skills]
      .filter(([slug, name]) => found.get(slug) !== name)
      .map(([slug, name]) => `${slug}: search shows "${found.get(slug)}", last upsert "${name}"`);
    if (missing.length === 0) break;
    await new Promise((ok) => setTimeout(ok, 500));
  } while (Date.now() < deadline);
  return [...problems, ...missing];
}
