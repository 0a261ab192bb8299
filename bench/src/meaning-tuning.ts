/**
 * How the fusion's weights were chosen (docs/search.md "Search by intent:
 * the fusion"), in this process, with no service: the memory engine's index
 * and vectors over a catalog, the real model, and the judgment sets, scored
 * for each weight set asked (and lexical and semantic alone):
 *
 *   node bench/dist/meaning-tuning.js --corpus bench/data/intent-catalog-20k.ndjson.gz [--held-out]
 *        [--model all-minilm-l6-v2-q] [--model-dir DIR] [--vectors FILE] [--try '{"meaning":24}' ...]
 *
 * Item vectors are kept in `--vectors` (by content hash) so a second run
 * embeds nothing. Tune on `intent-dev`; `--held-out` adds `intent` (the
 * held-out half), to report once the weights are chosen.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  contentHashOf,
  DEFAULT_MEANING_WEIGHTS,
  ElasticsearchEngine,
  embeddingTextOf,
  MeaningSearchEngine,
  type ItemVectorRepository,
  MemoryIndex,
  MemoryVectors,
  modeToRun,
  openTextEmbedder,
  toSearchQuery,
  type MeaningWeights,
  type SearchMode,
  type TextEmbedder,
} from '@skills/catalog-service';
import { createLogger, type CatalogItemState } from '@skills/common';
import { loadCatalog } from './catalog';
import { itemStateOf } from './item-state';
import { buildJudgments, reciprocalRank, QUALITY_DEPTH, type Judgment } from './quality';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string' },
      'held-out': { type: 'boolean', default: false },
      'model-dir': { type: 'string' },
      model: { type: 'string', default: 'all-minilm-l6-v2-q' },
      vectors: { type: 'string', default: '.data/meaning-tuning-vectors.json' },
      'per-set': { type: 'string', default: '200' },
      try: { type: 'string', multiple: true },
      elasticsearch: { type: 'string' },
    },
  });
  if (!values.corpus)
    throw new Error('--corpus FILE is required (the intent catalog: bench/data/intent-catalog-20k.ndjson.gz)');
  const logger = createLogger({ service: 'meaning-tuning', level: 'warn' });
  const embedder = await openTextEmbedder({
    model: values.model!,
    dir: values['model-dir'] ?? '.data/models',
    fetch: false,
    logger,
  });
  if (!embedder) throw new Error('the model is not there: npm run model:fetch first, or --model-dir');
  const catalog = await loadCatalog({
    corpus: values.corpus,
    items: undefined,
    vocabulary: 'generated',
    progress: () => undefined,
  });
  const states = catalog.lines.map(itemStateOf);
  const index = new MemoryIndex();
  index.apply(states);
  index.settle();
  const kept = await itemVectors(embedder, states, values.vectors!);
  // one vector index, explored widely enough for every weight set tried
  const vectors = new MemoryVectors(
    {
      model: embedder.model,
      dimensions: embedder.dimensions,
      weights: { ...DEFAULT_MEANING_WEIGHTS, candidates: 400 },
    },
    () => index,
  );
  vectors.note(states);
  const needs = await vectors.missing(states.length);
  await vectors.attach(
    needs.map((n) => ({
      id: n.id,
      contentHash: n.contentHash,
      vector: Float32Array.from(kept[keyOf(embedder, n.text)]!),
    })),
  );
  // tune on intent-dev; the held-out `intent` is printed only when asked (--held-out), once the weights are chosen
  const judgments = buildJudgments(catalog.lines, Number(values['per-set'])).filter(
    (j) => values['held-out'] || j.set !== 'intent',
  );
  const queryVectors = new Map<string, Float32Array>();
  for (const j of judgments)
    queryVectors.set(j.q, (await embedder.embedQueries([j.q.trim().replace(/\s+/g, ' ').toLowerCase()]))[0]!);
  const run = (mode: SearchMode, weights: MeaningWeights) =>
    score(judgments, (q) => search(index, vectors, q, queryVectors.get(q)!, mode, weights));
  for (const mode of ['lexical', 'semantic'] as SearchMode[]) report(mode, run(mode, DEFAULT_MEANING_WEIGHTS));
  const tries = [
    ['default', DEFAULT_MEANING_WEIGHTS],
    ...(values.try ?? []).map((t) => [t, { ...DEFAULT_MEANING_WEIGHTS, ...(JSON.parse(t) as object) }]),
  ] as Array<[string, MeaningWeights]>;
  for (const [name, weights] of tries) report(`hybrid ${name}`, run('hybrid', weights));
  if (values.elasticsearch) await onElasticsearch(values.elasticsearch, embedder, states, kept, judgments);
  await embedder.close();
}

/**
 * The same judgments on a live Elasticsearch node, with the default weights
 * (the node's query carries them): the catalog indexed with its vectors (the
 * store given the vectors above, so the words' write carries them), every
 * judgment asked as the service asks it, then the index dropped.
 */
async function onElasticsearch(
  node: string,
  embedder: TextEmbedder,
  states: CatalogItemState[],
  kept: Record<string, number[]>,
  judgments: readonly Judgment[],
) {
  const byHash = new Map(
    states.map((s) => [
      contentHashOf(embeddingTextOf(s)),
      Float32Array.from(kept[keyOf(embedder, embeddingTextOf(s))]!),
    ]),
  );
  const store: ItemVectorRepository = {
    find: async (_model, hashes) =>
      new Map(hashes.flatMap((h) => (byHash.has(h) ? [[h, byHash.get(h)!] as const] : []))),
    save: async () => undefined,
    count: async () => byHash.size,
  };
  const logger = createLogger({ service: 'meaning-tuning', level: 'warn' });
  const alias = `meaning-tuning-${process.pid}`;
  const engine = new ElasticsearchEngine({
    node,
    index: alias,
    logger,
    vectors: { model: embedder.model, dimensions: embedder.dimensions, store },
  });
  await engine.init();
  try {
    for (let i = 0; i < states.length; i += 2_000) await engine.apply(states.slice(i, i + 2_000));
    const search = new MeaningSearchEngine({ engine, embedder, logger });
    for (const mode of ['lexical', 'semantic', 'hybrid'] as SearchMode[]) {
      const scores: Scores = new Map();
      for (const j of judgments) {
        const result = await search.search({
          ...toSearchQuery({ q: j.q, page: 1, limit: QUALITY_DEPTH }, { showsUnscanned: true }),
          mode,
        });
        scores.set(j.set, [
          ...(scores.get(j.set) ?? []),
          reciprocalRank(
            result.items.map((i) => i.slug),
            j.relevant,
          ),
        ]);
      }
      report(`elasticsearch ${mode}`, scores);
    }
  } finally {
    // by name: the node refuses wildcard deletes (action.destructive_requires_name)
    const behind = Object.keys((await (await fetch(`${node}/_alias/${alias}`)).json()) as object);
    if (behind.length > 0) await fetch(`${node}/${behind.join(',')}`, { method: 'DELETE' });
    await engine.close();
  }
}

const keyOf = (embedder: TextEmbedder, text: string) => contentHashOf(`${embedder.model}\n${text}`);

/** The items' vectors by model and text, from the file when it holds them, else from the model (then kept in the file). */
async function itemVectors(
  embedder: TextEmbedder,
  states: CatalogItemState[],
  file: string,
): Promise<Record<string, number[]>> {
  const kept: Record<string, number[]> = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, number[]>)
    : {};
  const missing = [...new Set(states.map((s) => embeddingTextOf(s)).filter((t) => !kept[keyOf(embedder, t)]))];
  for (let i = 0; i < missing.length; i += 64) {
    const batch = missing.slice(i, i + 64);
    const computed = await embedder.embedDocuments(batch);
    batch.forEach((t, k) => (kept[keyOf(embedder, t)] = Array.from(computed[k]!, (x) => Math.round(x * 1e5) / 1e5)));
    if (i % 1_024 === 0) process.stderr.write(`  embedded ${i + batch.length}/${missing.length}\n`);
  }
  if (missing.length > 0) writeFileSync(file, JSON.stringify(kept));
  return kept;
}

/** One judged query's slugs, in the mode asked, as the service's MeaningSearchEngine would run it. */
function search(
  index: MemoryIndex,
  vectors: MemoryVectors,
  q: string,
  vector: Float32Array,
  asked: SearchMode,
  weights: MeaningWeights,
): string[] {
  const query = toSearchQuery({ q, page: 1, limit: QUALITY_DEPTH }, { showsUnscanned: true });
  const mode = modeToRun(asked, query.q, true, weights);
  if (mode === 'lexical') return index.search(query).items.map((i) => i.slug);
  const meaningful = { ...query, mode, meaning: vector };
  return index.search(meaningful, vectors.neighbours(meaningful, vector), weights).items.map((i) => i.slug);
}

type Scores = Map<string, number[]>;

function score(judgments: readonly Judgment[], slugsOf: (q: string) => string[]): Scores {
  const scores: Scores = new Map();
  for (const j of judgments)
    scores.set(j.set, [...(scores.get(j.set) ?? []), reciprocalRank(slugsOf(j.q), j.relevant)]);
  return scores;
}

/** MRR@10 / success@10 per set. */
function report(name: string, scores: Scores): void {
  const cells = [...scores].map(([set, rr]) => {
    const mrr = rr.reduce((a, b) => a + b, 0) / rr.length;
    const found = rr.filter((r) => r > 0).length / rr.length;
    return `${set} ${mrr.toFixed(3)}/${found.toFixed(3)}`;
  });
  process.stdout.write(`${name.padEnd(44)} ${cells.join('  ')}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`meaning tuning failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
