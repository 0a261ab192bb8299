/**
 * catalog-service's figures the bench reads from its /metrics (Prometheus
 * text format): the documents its index holds and its resident memory.
 */

/**
 * How many documents catalog-service can search: the gauge
 * skills_search_index_documents (documents the replica's search index
 * holds). A catalog-service that does not export it (one that searches
 * in Postgres) gets undefined, and the caller counts rows instead.
 */
export const INDEX_DOCUMENTS_METRIC = 'skills_search_index_documents';

/**
 * The value of a gauge or counter in Prometheus text format; the sum over
 * its label sets when it has several. Undefined when the metric is absent.
 */
export function readMetric(text: string, name: string): number | undefined {
  const pattern = new RegExp(`^${name}(?:\\{[^}]*\\})? ([-+0-9.eE]+|NaN|[-+]Inf)(?: \\d+)?$`, 'gm');
  let total: number | undefined;
  for (const match of text.matchAll(pattern)) total = (total ?? 0) + Number(match[1]);
  return total;
}

/** catalog-service's resident memory (prom-client's default process metric), in bytes. */
export async function residentBytes(catalogUrl: string): Promise<number | undefined> {
  const res = await fetch(`${catalogUrl}/metrics`);
  if (!res.ok) return undefined;
  return readMetric(await res.text(), 'process_resident_memory_bytes');
}

export async function indexDocuments(catalogUrl: string): Promise<number | undefined> {
  const res = await fetch(`${catalogUrl}/metrics`);
  if (!res.ok) return undefined;
  return readMetric(await res.text(), INDEX_DOCUMENTS_METRIC);
}

/** catalog-service's vector backlog (docs/operations.md): searchable items with a vector, and still without one; undefined without a model. */
export async function meaningProgress(catalogUrl: string): Promise<{ ready: number; missing: number } | undefined> {
  const res = await fetch(`${catalogUrl}/metrics`);
  if (!res.ok) return undefined;
  const text = await res.text();
  const ready = readMetric(text, 'skills_search_vectors_ready');
  const missing = readMetric(text, 'skills_search_vectors_missing');
  return ready === undefined || missing === undefined ? undefined : { ready, missing };
}
