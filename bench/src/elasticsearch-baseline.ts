/**
 * The bare baseline of the Elasticsearch mode: what the same node answers
 * when asked the plainest way. A plain index of the same active items (name
 * and description with the built-in `standard` analyzer, category and type
 * as keywords) and one `_search` per request, sent straight to the node: a
 * `multi_match` of the request's words over `name^3` and `description`, its
 * category and type as filters, its page and size. No facets, no typo run,
 * no popularity: the ratio to it is what catalog-service's ranking, the
 * gateway and catalog-service cost on top of one Elasticsearch request.
 */
import { es } from './elasticsearch-node';
import type { ImportLine } from './import-line';
import type { Phase, RequestSpec } from './load';
import { CLASS_WEIGHTS } from './query-mix';
import type { SearchSource } from './phases';

/** Body of `PUT /<baseline index>`: one shard as catalog-service's index has, so both read one shard's statistics. */
export const BASELINE_INDEX = {
  settings: { number_of_shards: 1, number_of_replicas: 0 },
  mappings: {
    dynamic: 'strict',
    properties: {
      name: { type: 'text', analyzer: 'standard' },
      description: { type: 'text', analyzer: 'standard' },
      category: { type: 'keyword' },
      type: { type: 'keyword' },
    },
  },
} as const;

/** The multi_match fields: the name weighs three times the description. */
export const BASELINE_FIELDS = ['name^3', 'description'];

/**
 * The `_search` body the baseline sends for one request of the long-tail mix
 * (`/api/v1/skills?q=…&category=…&type=…&limit=…&page=…`): the same words,
 * filters and page; a request without words (browsing) filters only.
 */
export function baselineSearchBody(path: string): Record<string, unknown> {
  const params = new URL(path, 'http://bench').searchParams;
  const q = params.get('q');
  const size = Number(params.get('limit') ?? 20);
  const page = Number(params.get('page') ?? 1);
  const filter: Array<Record<string, unknown>> = [];
  for (const field of ['category', 'type'] as const) {
    const value = params.get(field);
    if (value !== null) filter.push({ term: { [field]: value } });
  }
  const must = q === null ? [] : [{ multi_match: { query: q, fields: BASELINE_FIELDS } }];
  return { from: (page - 1) * size, size, query: { bool: { must, filter } } };
}

/** Loads the active items into `index` in bulks of `chunk`, refreshes it, and returns the seconds it took. */
export async function buildBaselineIndex(
  url: string,
  index: string,
  lines: readonly ImportLine[],
  progress: (text: string, done: boolean) => void,
  chunk = 5_000,
): Promise<number> {
  const active = lines.filter((line) => line.status === 'active');
  const started = performance.now();
  await es(url, 'PUT', `/${index}`, BASELINE_INDEX);
  for (let from = 0; from < active.length; from += chunk) {
    const body = active
      .slice(from, from + chunk)
      .map(
        (line) =>
          `${JSON.stringify({ index: { _id: line.slug } })}\n${JSON.stringify({ name: line.name, description: line.description, category: line.category, type: line.type })}\n`,
      )
      .join('');
    const answer = await es<{ errors: boolean; items: Array<{ index: { error?: unknown } }> }>(
      url,
      'POST',
      `/${index}/_bulk`,
      body,
      'application/x-ndjson',
    );
    if (answer.errors)
      throw new Error(`baseline index: ${JSON.stringify(answer.items.find((item) => item.index.error)?.index.error)}`);
    progress(`baseline index: ${Math.min(active.length, from + chunk)}/${active.length} items`, false);
  }
  await es(url, 'POST', `/${index}/_refresh`);
  const seconds = (performance.now() - started) / 1000;
  progress(`baseline index: ${active.length} items in ${seconds.toFixed(1)} s`, true);
  return seconds;
}

/** The baseline's load phase: each request of `next` as its `_search` on `index`, tagged with its class. */
export function elasticsearchBaselinePhase(scenario: string, url: string, index: string, next: SearchSource): Phase {
  return {
    scenario,
    url,
    classes: CLASS_WEIGHTS.map(([cls]) => cls),
    requests: [
      {
        setup: (): RequestSpec => {
          const { cls, path } = next();
          return {
            method: 'POST',
            path: `/${index}/_search`,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(baselineSearchBody(path)),
            tag: cls,
          };
        },
      },
    ],
  };
}
