/**
 * `node bench/dist/engine-classes.js [--corpus FILE | --vocabulary broad] [--items N] [--seconds S]`:
 * the memory index alone, in this process, one query at a time: the long-tail
 * mix of `npm run bench` applied straight to a MemoryIndex, with the mean and
 * p99 per query class. It separates what the engine costs from what the HTTP
 * hops and the machine add (docs/performance.md).
 */
import { parseArgs } from 'node:util';
import { MemoryIndex, type SearchQuery } from '@skills/catalog-service';
import { loadCatalog, type Vocabulary } from './catalog';
import { itemStateOf } from './item-state';
import { longTailMix } from './query-mix';
import { percentile } from './stats';

function queryOf(path: string): SearchQuery {
  const params = new URL(path, 'http://bench').searchParams;
  const q = params.get('q') ?? undefined;
  const category = params.get('category') ?? undefined;
  const type = (params.get('type') ?? undefined) as SearchQuery['type'];
  const facets = params.get('facets')?.split(',') as SearchQuery['facets'];
  return {
    q,
    category,
    type,
    facets,
    page: Number(params.get('page') ?? 1),
    limit: Number(params.get('limit') ?? 20),
    sort: q ? 'relevance' : 'newest',
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string' },
      vocabulary: { type: 'string' },
      items: { type: 'string' },
      seconds: { type: 'string' },
    },
  });
  const progress = (text: string) => process.stdout.write(`  ${text}\n`);
  const catalog = await loadCatalog({
    corpus: values.corpus,
    items: values.items === undefined ? undefined : Number(values.items),
    vocabulary: (values.vocabulary ?? 'generated') as Vocabulary,
    progress,
  });
  const index = new MemoryIndex();
  const loadStarted = performance.now();
  for (let i = 0; i < catalog.lines.length; i += 10_000)
    index.apply(catalog.lines.slice(i, i + 10_000).map((line, k) => itemStateOf(line, i + k)));
  index.settle();
  progress(
    `${index.size.toLocaleString('en')} searchable items indexed in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
  );

  const next = longTailMix(catalog.lines, 42);
  const times = new Map<string, number[]>();
  const until = performance.now() + Number(values.seconds ?? 6) * 1000;
  while (performance.now() < until) {
    const request = next();
    const query = queryOf(request.path);
    const started = performance.now();
    index.search(query);
    const spent = performance.now() - started;
    // a request asking for facets reads every match: its own row
    const key = query.facets ? `${request.cls} +f` : request.cls;
    const spentByClass = times.get(key) ?? [];
    spentByClass.push(spent);
    times.set(key, spentByClass);
  }
  const all = [...times.values()].flat();
  const row = (name: string, values: number[]) =>
    `${name.padEnd(13)} ${String(values.length).padStart(7)} ${(values.reduce((a, b) => a + b, 0) / values.length).toFixed(3).padStart(8)} ${percentile(values, 99).toFixed(3).padStart(8)}`;
  process.stdout.write(`\nclass         queries  mean ms   p99 ms\n`);
  for (const [cls, values] of times) process.stdout.write(`${row(cls, values)}\n`);
  process.stdout.write(`${row('all', all)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
