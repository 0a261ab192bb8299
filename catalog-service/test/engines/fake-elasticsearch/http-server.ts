/**
 * A fake Elasticsearch node over real HTTP: the REST calls the engine makes
 * (index and alias management, bulk with external versions, mget, search
 * with the DSL subset of query-eval.ts, cluster health), answered like a
 * node of the given major. It checks the compatibility header as a real
 * node does: an 8.x node refuses `compatible-with=9`; a 9.x node takes 8
 * and 9. Tests drive the engine against it where no cluster can run; the
 * live suites run the same cases against a real one.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EsError, FakeCluster } from './fake-cluster';
import { UnsupportedQueryError } from './query-eval';

export interface FakeNode {
  url: string;
  cluster: FakeCluster;
  /** the Accept / Content-Type headers of every request, in order */
  mediaTypes: Array<{ accept?: string; contentType?: string; path: string }>;
  close(): Promise<void>;
}

export async function startFakeElasticsearch(major: 8 | 9 = 9): Promise<FakeNode> {
  const cluster = new FakeCluster();
  const mediaTypes: FakeNode['mediaTypes'] = [];
  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    mediaTypes.push({ accept: req.headers.accept, contentType: req.headers['content-type'], path: url.pathname });
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, { 'content-type': `application/vnd.elasticsearch+json;compatible-with=${major}`, 'x-elastic-product': 'Elasticsearch' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    try {
      const refused = compatibilityError(major, req.headers.accept, req.headers['content-type']);
      if (refused) return send(400, { error: { type: 'media_type_header_exception', reason: refused }, status: 400 });
      const result = route(cluster, req.method ?? 'GET', url, raw);
      send(result.status, result.body);
    } catch (err) {
      if (err instanceof EsError) return send(err.status, { error: { type: err.type, reason: err.message }, status: err.status });
      if (err instanceof UnsupportedQueryError) return send(400, { error: { type: err.type, reason: err.message }, status: 400 });
      send(500, { error: { type: 'fake_failure', reason: String(err) }, status: 500 });
    }
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cluster,
    mediaTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a node of `major` answers to the vendored media types: an 8.x node knows only compatible-with=7 and 8. */
function compatibilityError(major: 8 | 9, accept: string | undefined, contentType: string | undefined): string | undefined {
  for (const header of [accept, contentType]) {
    const version = /compatible-with=(\d+)/.exec(header ?? '')?.[1];
    if (version !== undefined && (Number(version) > major || Number(version) < major - 1)) {
      return `A compatible version is required on both Content-Type and Accept headers if either one has requested a compatible version. Accept=${accept}, Content-Type=${contentType}`;
    }
  }
  return undefined;
}

interface Reply {
  status: number;
  body?: unknown;
}

function route(cluster: FakeCluster, method: string, url: URL, raw: string): Reply {
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const json = () => (raw ? (JSON.parse(raw) as Record<string, unknown>) : {});
  const [first, second, third] = parts;
  if (first === '_alias' && second) {
    if (method === 'HEAD') return { status: cluster.aliases.has(second) ? 200 : 404 };
    const indices = cluster.aliases.get(second);
    if (!indices) return { status: 404, body: { error: `alias [${second}] missing`, status: 404 } };
    return { status: 200, body: Object.fromEntries([...indices].map((i) => [i, { aliases: { [second]: {} } }])) };
  }
  if (first === '_aliases' && method === 'POST') {
    cluster.updateAliases(json().actions as never);
    return { status: 200, body: { acknowledged: true } };
  }
  if (first === '_cluster' && second === 'health') {
    // a named index or alias that does not exist reads red (TransportClusterHealthAction)
    const missing = third !== undefined && !cluster.indices.has(third) && !cluster.aliases.has(third);
    return { status: 200, body: { cluster_name: 'fake', status: missing ? 'red' : 'green' } };
  }
  if (first === '_bulk' || second === '_bulk') return { status: 200, body: bulk(cluster, raw, url, second === '_bulk' ? first : undefined) };
  if (!first) return { status: 200, body: { version: { number: '9.0.0' } } };
  if (second === '_search') return { status: 200, body: cluster.search(first, json()) };
  if (second === '_mget') {
    const ids = (json().ids as string[]) ?? [];
    return { status: 200, body: { docs: ids.map((id) => docReply(cluster, first, id)) } };
  }
  if (second === '_mapping') {
    if (method === 'GET') return { status: 200, body: cluster.mappingsOf(first) };
    cluster.putMapping(first, json());
    return { status: 200, body: { acknowledged: true } };
  }
  if (second === '_refresh') {
    cluster.refresh(first);
    return { status: 200, body: { _shards: { total: 1, successful: 1, failed: 0 } } };
  }
  if (second === undefined && method === 'PUT') {
    cluster.createIndex(first, json());
    return { status: 200, body: { acknowledged: true, shards_acknowledged: true, index: first } };
  }
  if (second === undefined && method === 'DELETE') {
    cluster.deleteIndices(first);
    return { status: 200, body: { acknowledged: true } };
  }
  throw new EsError(400, 'fake_unsupported', `fake: ${method} ${url.pathname} not modelled`);
}

function docReply(cluster: FakeCluster, index: string, id: string): Record<string, unknown> {
  const doc = cluster.get(index, id);
  return doc ? { _index: index, _id: id, _version: doc.version, found: true } : { _index: index, _id: id, found: false };
}

function bulk(cluster: FakeCluster, raw: string, url: URL, pathIndex: string | undefined): Record<string, unknown> {
  const lines = raw.split('\n').filter((l) => l.trim() !== '');
  const requireAlias = url.searchParams.get('require_alias') === 'true';
  const items = [];
  const touched = new Set<string>();
  for (let i = 0; i < lines.length; i += 2) {
    const action = JSON.parse(lines[i]!) as { index?: { _index?: string; _id: string; version: number; version_type: string; require_alias?: boolean } };
    if (!action.index || action.index.version_type !== 'external') throw new EsError(400, 'fake_unsupported', 'fake: only index actions with external versions');
    const target = action.index._index ?? pathIndex ?? '';
    const result = cluster.write(target, action.index._id, action.index.version, JSON.parse(lines[i + 1]!), requireAlias || action.index.require_alias === true);
    if (result.index.status < 300) touched.add(target);
    items.push(result);
  }
  // refresh=wait_for answers once the next refresh made the writes searchable
  const refresh = url.searchParams.get('refresh');
  if (refresh === 'wait_for' || refresh === 'true') for (const target of touched) cluster.refresh(target);
  return { took: 1, errors: items.some((i) => i.index.status >= 300), items };
}
