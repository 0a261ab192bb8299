/**
 * Search quality against a running stack, without the load bench:
 *   node bench/dist/quality-main.js --corpus FILE [--items N] --gateway URL --key API_KEY [--per-set N] [--json FILE]
 *   node bench/dist/quality-main.js --vocabulary generated|broad --items N --gateway URL --key API_KEY
 * The stack must hold the same catalog (e.g. a bench run with --keep, or an
 * import of the same file): the judgments are built from it, not read back.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { describeCatalog, loadCatalog, type Vocabulary } from './catalog';
import { formatQualityTable, QUALITY_PER_SET } from './quality';
import { measureQuality } from './quality-run';

function progress(text: string, done: boolean): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K  ${text}${done ? '\n' : ''}`);
  else if (done) process.stderr.write(`  ${text}\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string' },
      items: { type: 'string' },
      vocabulary: { type: 'string' },
      gateway: { type: 'string' },
      key: { type: 'string' },
      'per-set': { type: 'string' },
      json: { type: 'string' },
    },
  });
  if (!values.gateway || !values.key) throw new Error('--gateway URL and --key API_KEY are required');
  if (!values.corpus && !values.items)
    throw new Error('--corpus FILE, or --items N of the generated catalog, is required');
  const vocabulary = (values.vocabulary ?? 'generated') as Vocabulary;
  if (vocabulary !== 'generated' && vocabulary !== 'broad') throw new Error('--vocabulary must be generated or broad');
  const catalog = await loadCatalog({
    corpus: values.corpus,
    items: values.items ? Number(values.items) : undefined,
    vocabulary,
    progress,
  });
  progress(`catalog: ${describeCatalog(catalog.source)}`, true);
  const report = await measureQuality(
    values.gateway.replace(/\/$/, ''),
    values.key,
    catalog.lines,
    progress,
    Number(values['per-set'] ?? QUALITY_PER_SET),
  );
  process.stdout.write(`${formatQualityTable(report.sets)}\n`);
  if (values.json)
    await writeFile(
      values.json,
      `${JSON.stringify({ at: new Date().toISOString(), catalog: catalog.source, quality: report }, null, 2)}\n`,
    );
}

main().catch((err: unknown) => {
  process.stderr.write(`quality failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
