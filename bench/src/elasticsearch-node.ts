/**
 * The Elasticsearch node of the bench's Elasticsearch mode, spoken to over
 * plain REST (the bench is a client like any other; only catalog-service's
 * adapter uses the driver): finding or starting the node, counting what an
 * alias can search, and removing the run's own indices afterwards.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { SearchableCount } from './setup';

const ROOT = join(__dirname, '..', '..');

export interface ElasticsearchNode {
  url: string;
  version: string;
}

/** One REST call; a non-2xx answer throws with its status and the start of its body. */
export async function es<T>(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': contentType },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`Elasticsearch ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * The node at `url`, or local-servers' 9.x node (started if it is not
 * running; the script returns at once when it is). Its version is read from
 * the node itself, so the report says what was measured.
 */
export async function elasticsearchNode(url: string | undefined): Promise<ElasticsearchNode> {
  let node = url;
  if (!node) {
    const script = join(ROOT, 'local-servers', 'elasticsearch.sh');
    await promisify(execFile)(script, ['start', '9'], { timeout: 300_000 });
    node = (await promisify(execFile)(script, ['url', '9'])).stdout.trim();
  }
  const info = await es<{ nodes: Record<string, { version: string }> }>(
    node,
    'GET',
    '/_nodes/_local?filter_path=nodes.*.version',
  );
  const version = Object.values(info.nodes)[0]?.version ?? 'unknown';
  return { url: node, version };
}

/** What catalog-service's engine can return: active, public documents behind the alias (tombstones and drafts never are). */
export function searchableCount(url: string, alias: string): SearchableCount {
  let before = 0;
  const count = async (): Promise<number> => {
    const query = { query: { bool: { filter: [{ term: { status: 'active' } }, { term: { visibility: 'public' } }] } } };
    return (await es<{ count: number }>(url, 'POST', `/${alias}/_count`, query)).count;
  };
  return {
    source: 'elasticsearch',
    start: async () => {
      before = await count();
    },
    added: async () => (await count()) - before,
    close: async () => undefined,
  };
}

/**
 * Deletes every index whose name starts with `prefix` (and so its aliases).
 * By name, one by one: clusters refuse wildcard deletes by default
 * (`action.destructive_requires_name`).
 */
export async function deleteIndices(url: string, prefix: string): Promise<string[]> {
  const rows = await es<Array<{ index: string }>>(
    url,
    'GET',
    `/_cat/indices/${prefix}*?format=json&h=index&expand_wildcards=all`,
  );
  const names = rows.map((row) => row.index).filter((name) => name.startsWith(prefix));
  for (const name of names) await es(url, 'DELETE', `/${name}`);
  return names;
}

/**
 * Waits until no merge has run on the run's indices for `quietSec` (the
 * engine merges its index into one segment 2 s after a bulk of writes:
 * catalog-service's compaction.ts), so that both the baseline and the
 * engine are measured at rest rather than beside a merge; says how many
 * segments each index has then.
 * https://elastic.co/docs/api/doc/elasticsearch/operation/operation-indices-stats
 */
export async function waitForMerges(
  url: string,
  prefix: string,
  progress: (text: string, done: boolean) => void,
  quietSec = 5,
  limitSec = 300,
): Promise<void> {
  type Stats = { indices: Record<string, { primaries: { merges: { current: number }; segments: { count: number } } }> };
  const started = performance.now();
  let quietSince = performance.now();
  for (;;) {
    const stats = await es<Stats>(url, 'GET', `/${prefix}*/_stats/merge,segments?filter_path=indices.*.primaries`);
    const indices = Object.entries(stats.indices ?? {});
    if (indices.some(([, s]) => s.primaries.merges.current > 0)) quietSince = performance.now();
    const segments = Object.fromEntries(indices.map(([name, s]) => [name, s.primaries.segments.count]));
    const elapsed = (performance.now() - started) / 1000;
    if ((performance.now() - quietSince) / 1000 >= quietSec || elapsed >= limitSec) {
      progress(
        `merges: quiet after ${elapsed.toFixed(0)} s; segments ${Object.entries(segments)
          .map(([name, n]) => `${name} ${n}`)
          .join(', ')}`,
        true,
      );
      return;
    }
    progress(`merges: waiting for the node to finish merging (${elapsed.toFixed(0)} s)`, false);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
