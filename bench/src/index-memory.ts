/**
 * `node --expose-gc bench/dist/index-memory.js [--corpus FILE | --vocabulary broad] [--items N]`:
 * what the memory index holds, in this process and nothing else: the catalog
 * is turned into item states batch by batch, applied, the import lines
 * dropped, the index settled, and a full collection run before
 * `process.memoryUsage()` is read. catalog-service at 1,000,000 items is this
 * figure plus its HTTP server, database pool and the JSON of pages it served
 * (bench/results/2026-11-25-memory-engine.md, "Memory at 1M").
 */
import { parseArgs } from 'node:util';
import { getHeapSpaceStatistics } from 'node:v8';
import { MemoryIndex } from '@skills/catalog-service';
import { loadCatalog, type Vocabulary } from './catalog';
import { itemStateOf } from './item-state';

const MB = 1024 * 1024;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { corpus: { type: 'string' }, vocabulary: { type: 'string' }, items: { type: 'string' } },
  });
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with node --expose-gc, so the figure is taken after a full collection');
  const progress = (text: string) => process.stdout.write(`  ${text}\n`);
  const catalog = await loadCatalog({
    corpus: values.corpus,
    items: values.items === undefined ? 1_000_000 : Number(values.items),
    vocabulary: (values.vocabulary ?? 'generated') as Vocabulary,
    progress,
  });
  const index = new MemoryIndex();
  const started = performance.now();
  const lines = catalog.lines;
  for (let i = 0; i < lines.length; i += 10_000) {
    index.apply(lines.slice(i, i + 10_000).map((line, k) => itemStateOf(line, i + k)));
    if ((i / 10_000) % 10 === 9) progress(`${(i + 10_000).toLocaleString('en')} applied`);
  }
  // The service keeps what its database rows held and nothing of the import: neither does this.
  lines.length = 0;
  index.settle();
  const seconds = (performance.now() - started) / 1000;
  collect();
  // V8 gives freed pages back to the system from a background thread: read RSS once it has
  await new Promise((resolve) => setTimeout(resolve, 3000));
  collect();
  const usage = process.memoryUsage();
  const perItem = (bytes: number) => `${(bytes / index.size / 1024).toFixed(2)} KB an item`;
  process.stdout.write(
    [
      `${index.size.toLocaleString('en')} searchable items indexed and settled in ${seconds.toFixed(1)} s`,
      `rss           ${(usage.rss / MB).toFixed(0).padStart(6)} MB  ${perItem(usage.rss)}`,
      `heap used     ${(usage.heapUsed / MB).toFixed(0).padStart(6)} MB  ${perItem(usage.heapUsed)}`,
      `array buffers ${(usage.arrayBuffers / MB).toFixed(0).padStart(6)} MB  ${perItem(usage.arrayBuffers)}`,
      `heap total    ${(usage.heapTotal / MB).toFixed(0).padStart(6)} MB  (what V8 holds for its heap, used or not)`,
      `(the index: ${index.size} items)`,
      ...getHeapSpaceStatistics()
        .filter((space) => space.space_size > 8 * MB)
        .map(
          (space) =>
            `  ${space.space_name.padEnd(24)} ${(space.space_used_size / MB).toFixed(0).padStart(6)} MB used of ${(space.space_size / MB).toFixed(0)} MB`,
        ),
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
