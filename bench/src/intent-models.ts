/**
 * Each candidate model alone on the intent judgment set: the intent catalog
 * embedded whole, every query answered by brute-force cosine over it, scored
 * by success@10 and MRR@10 per split; and each model's speed (ms per text on
 * one onnxruntime thread, over the same 1,000 summaries) and size.
 *   node bench/dist/intent-models.js [--models a,b] [--repeat N] [--json FILE] [--pool FILE]
 * (--repeat: speed runs, the fastest counts; --pool: each query's top 10 of
 * every model, the candidates a judge reads.)
 * Models are fetched (pinned, checked) into EMBEDDING_MODEL_DIR as a start
 * would; the catalog's vectors are kept in .data/intent-vectors/ so a second
 * run only embeds the queries and the speed sample.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  checkModelFiles,
  cosine,
  EMBEDDING_MODELS,
  embeddingModel,
  embeddingTextOf,
  fetchModelFiles,
  loadEmbeddingConfig,
  modelFilesIn,
  modelName,
  OnnxTextEmbedder,
  type EmbeddingModel,
} from '@skills/catalog-service';
import { readCorpus } from './corpus';
import type { ImportLine } from './import-line';
import { INTENT_CATALOG_FILE, loadIntentJudgments, type IntentJudgment, type IntentSplit } from './intent-judgments';
import { reciprocalRank, QUALITY_DEPTH } from './quality';

export interface ModelScore {
  model: string;
  licence: string;
  /** the ONNX file, bytes */
  bytes: number;
  /** ms per summary embedded, one thread */
  msPerText: number;
  splits: Record<IntentSplit, { queries: number; success10: number; mrr10: number }>;
}

const SPEED_SAMPLE = 1_000;
const BATCH = 256;

function progress(text: string, done: boolean): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K  ${text}${done ? '\n' : ''}`);
  else if (done) process.stderr.write(`  ${text}\n`);
}

async function embedAll(embedder: OnnxTextEmbedder, texts: string[], label: string): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += BATCH) {
    out.push(...(await embedder.embedDocuments(texts.slice(i, i + BATCH))));
    progress(`${label}: ${out.length}/${texts.length}`, false);
  }
  return out;
}

/** The catalog's vectors, from the cache file when it holds this many of this model's. */
async function catalogVectors(embedder: OnnxTextEmbedder, texts: string[], cacheDir: string): Promise<Float32Array[]> {
  const file = join(cacheDir, `${embedder.model}.f32`);
  const bytes = texts.length * embedder.dimensions * 4;
  const cached = await stat(file).catch(() => undefined);
  if (cached?.size === bytes) {
    const buffer = await readFile(file);
    const all = new Float32Array(buffer.buffer, buffer.byteOffset, buffer.length / 4);
    return texts.map((_, i) => all.subarray(i * embedder.dimensions, (i + 1) * embedder.dimensions));
  }
  const vectors = await embedAll(embedder, texts, `${embedder.model} catalog`);
  await mkdir(cacheDir, { recursive: true });
  await writeFile(file, Buffer.concat(vectors.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength))));
  return vectors;
}

/** The `depth` best items by cosine, best first. */
export function nearest(query: Float32Array, vectors: readonly Float32Array[], depth = QUALITY_DEPTH): number[] {
  const best: Array<[number, number]> = [];
  vectors.forEach((v, i) => {
    const score = cosine(query, v);
    if (best.length < depth || score > (best[best.length - 1] as [number, number])[1]) {
      best.push([i, score]);
      best.sort((a, b) => b[1] - a[1]);
      if (best.length > depth) best.pop();
    }
  });
  return best.map(([i]) => i);
}

interface MeasureOptions {
  cacheDir: string;
  /** speed runs over the sample; the fastest counts (the machine is shared: the others met contention) */
  repeat: number;
  pool?: Map<string, Set<string>>;
}

async function measure(
  model: EmbeddingModel,
  catalog: ImportLine[],
  judgments: IntentJudgment[],
  options: MeasureOptions,
): Promise<ModelScore> {
  const { cacheDir, pool } = options;
  const { dir } = loadEmbeddingConfig(process.env);
  if ((await checkModelFiles(dir, model)) !== 'verified') {
    progress(`${modelName(model)}: fetching`, true);
    await fetchModelFiles(dir, model);
  }
  const files = modelFilesIn(dir, model);
  const embedder = await OnnxTextEmbedder.open({ model, ...files, threads: 1, maxQueuedTexts: BATCH });
  try {
    // what the service gives a model of an item, so the models are compared on what they would embed
    const texts = catalog.map(embeddingTextOf);
    const sample = texts.slice(0, SPEED_SAMPLE);
    let msPerText = Infinity;
    for (let run = 0; run < options.repeat; run++) {
      const started = process.hrtime.bigint();
      await embedAll(embedder, sample, `${embedder.model} speed`);
      msPerText = Math.min(msPerText, Number(process.hrtime.bigint() - started) / 1e6 / sample.length);
    }
    const vectors = await catalogVectors(embedder, texts, cacheDir);
    const queries = await embedder.embedQueries(judgments.map((j) => j.q));
    const splits = { dev: [] as number[], test: [] as number[] };
    judgments.forEach((j, k) => {
      const found = nearest(queries[k] as Float32Array, vectors).map((i) => (catalog[i] as ImportLine).slug);
      found.forEach((slug) => pool?.get(j.id)?.add(slug));
      splits[j.split].push(reciprocalRank(found, j.relevant));
    });
    const score = (ranks: number[]) => ({
      queries: ranks.length,
      success10: ranks.filter((r) => r > 0).length / ranks.length,
      mrr10: ranks.reduce((a, b) => a + b, 0) / ranks.length,
    });
    const bytes = (await stat(files.onnxPath)).size;
    progress(`${embedder.model}: test success@10 ${score(splits.test).success10.toFixed(3)}`, true);
    return {
      model: embedder.model,
      licence: model.licence,
      bytes,
      msPerText,
      splits: { dev: score(splits.dev), test: score(splits.test) },
    };
  } finally {
    await embedder.close();
  }
}

export function formatModelTable(scores: readonly ModelScore[]): string {
  const header = ['model', 'dev s@10', 'dev MRR@10', 'test s@10', 'test MRR@10', 'ms/text', 'MB', 'licence'];
  const rows = scores.map((s) => [
    s.model,
    s.splits.dev.success10.toFixed(3),
    s.splits.dev.mrr10.toFixed(3),
    s.splits.test.success10.toFixed(3),
    s.splits.test.mrr10.toFixed(3),
    s.msPerText.toFixed(2),
    (s.bytes / 1_000_000).toFixed(1),
    s.licence,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      models: { type: 'string' },
      json: { type: 'string' },
      pool: { type: 'string' },
      repeat: { type: 'string' },
    },
  });
  const models = values.models
    ? values.models.split(',').map((id) => embeddingModel(id.trim()))
    : [...EMBEDDING_MODELS];
  const { lines: catalog } = await readCorpus(INTENT_CATALOG_FILE, undefined, progress);
  const judgments = loadIntentJudgments();
  const pool = values.pool ? new Map(judgments.map((j) => [j.id, new Set<string>()])) : undefined;
  const cacheDir = join(__dirname, '..', '..', '.data', 'intent-vectors');
  const scores: ModelScore[] = [];
  const repeat = Math.max(1, Number(values.repeat ?? 1));
  for (const model of models) scores.push(await measure(model, catalog, judgments, { cacheDir, repeat, pool }));
  process.stdout.write(
    `model alone on the intent set (${catalog.length} items, brute-force cosine)\n${formatModelTable(scores)}\n`,
  );
  if (values.json)
    await writeFile(
      values.json,
      `${JSON.stringify({ at: new Date().toISOString(), items: catalog.length, scores }, null, 2)}\n`,
    );
  if (pool && values.pool)
    await writeFile(
      values.pool,
      `${JSON.stringify(Object.fromEntries([...pool].map(([id, slugs]) => [id, [...slugs]])), null, 2)}\n`,
    );
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`intent-models failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
