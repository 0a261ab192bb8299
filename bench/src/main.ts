/**
 * `npm run bench [-- --corpus FILE | --vocabulary broad] [--items N] [--quick]
 * [--search-cache both|on|off] [--quality] [--duration S] [--connections LIST]
 * [--profile] [--keep] [--engine elasticsearch [--elasticsearch-url URL]] [--overload]`
 * (the Elasticsearch mode: elasticsearch-bench.ts; the overload run: overload-bench.ts): loads a catalog through the admin import, then
 * measures the baseline, the long-tail search mix (direct and via the
 * gateway) and a repeated one, with catalog-service's search cache on and
 * off, collections and index lag; prints the tables, writes
 * bench/results/<ts>.json, latest.json, runs.svg (throughput and latency per
 * connection count) and latency-classes.svg.
 * DATABASE_URL: a fresh bench_<ts> database on that server (dropped
 * afterwards); else PGlite in memory.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeCatalog, loadCatalog, type Catalog } from './catalog';
import { readChangesFeed, type FeedResult } from './changes-feed';
import { classLatencyChart } from './class-chart';
import { formatClassTable } from './class-stats';
import { runsChart } from './chart';
import { DEFAULT_ADMISSION } from '@skills/gateway';
import { BENCH_USAGE, parseBenchOptions, type BenchOptions } from './cli-options';
import { runElasticsearchBench } from './elasticsearch-bench';
import { formatCpuTable, runMeasuredLoad, type CpuSources } from './cpu-accounting';
import type { Phase } from './load';
import { runOverloadBench } from './overload-bench';
import { baselinePhase, collectionPatchPhase, collectionReadPhase } from './phases';
import {
  cleanUpOnSignal,
  stackCpuSources,
  startBaseline,
  startDatabase,
  startStack,
  stopChild,
  type BenchDatabase,
  type Child,
  type Stack,
} from './processes';
import { formatQualityTable } from './quality';
import { measureQuality, type QualityReport } from './quality-run';
import { CACHE_ENV, runSearchPhases, switchSearchCache, type CacheState } from './search-runs';
import { createUsers, importCatalog, measureIndexLag, type BenchUser } from './setup';
import { residentBytes } from './catalog-metrics';
import { checkTargets, formatTable, lagOf, type CatalogFootprint, type ImportResult, type LoadResult } from './stats';

const RESULTS = join(__dirname, '..', 'results');

let lastLine = 0;
/** A TTY gets one rewritten line; a log (CI, pipe) a line every few seconds and every final one. */
function progress(text: string, done: boolean): void {
  if (process.stdout.isTTY) {
    process.stdout.write(`\r\x1b[K  ${text}${done ? '\n' : ''}`);
  } else if (done || Date.now() - lastLine > 5_000) {
    lastLine = Date.now();
    process.stdout.write(`  ${text}\n`);
  }
}

function phaseTitle(name: string): void {
  process.stdout.write(`\n== ${name}\n`);
}

async function main(): Promise<void> {
  const options = parseBenchOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(BENCH_USAGE);
    return;
  }
  const sinks = { progress, phaseTitle, resultsDir: RESULTS };
  if (options.overload) {
    await runOverloadBench(options, sinks);
    return;
  }
  // both: each engine's tables, CPU per component beside its bare baseline, from one command
  if (options.engine !== 'elasticsearch') await runMemoryBench(options);
  // Elasticsearch is measured as its bare baseline runs: every search reaching the node, unless the caches were asked for
  if (options.engine === 'both')
    await runElasticsearchBench({ ...options, searchCache: options.searchCache === 'on' ? 'on' : 'off' }, sinks);
  if (options.engine === 'elasticsearch') await runElasticsearchBench(options, sinks);
}

/** The memory engine's run: import, baseline, search phases, collections, index lag; tables and reports. */
async function runMemoryBench(options: BenchOptions): Promise<void> {
  const { durationSec, warmupSec, connections } = options;
  // both: the deployed defaults first, then the honest long tail without the cache
  const cacheStates: CacheState[] = options.searchCache === 'both' ? ['on', 'off'] : [options.searchCache];
  phaseTitle(
    `setup: ${durationSec} s per run after ${warmupSec} s warm-up, connections ${connections.join('/')}, search cache ${cacheStates.join(' then ')}`,
  );
  const catalog = await loadCatalog({
    corpus: options.corpus,
    items: options.items,
    vocabulary: options.vocabulary,
    progress,
  });
  progress(`catalog: ${describeCatalog(catalog.source)}`, true);
  const db = await startDatabase(process.env.DATABASE_URL || undefined);
  progress(`database: ${db.kind} ${db.name} ${db.url}`, true);
  const run: MemoryRun = { options, cacheStates, catalog, db, children: [] };
  const cleanup = async () => {
    for (const child of run.children) await stopChild(child).catch(() => undefined);
    await run.stack?.stop().catch(() => undefined);
    if (options.keep && db.kind === 'postgres') process.stdout.write(`kept database ${db.url}\n`);
    else await db.drop().catch((err: unknown) => process.stderr.write(`could not drop ${db.name}: ${String(err)}\n`));
  };
  cleanUpOnSignal(cleanup);
  try {
    const prepared = await prepareStack(run);
    const measured = await measureLoads(run, prepared);
    const report = reportOf(run, prepared, measured);
    printReport(run, report);
    await writeReport(report, options.quick);
  } finally {
    await cleanup();
  }
}

/** What one memory run holds from start to clean-up. */
interface MemoryRun {
  options: BenchOptions;
  cacheStates: CacheState[];
  catalog: Catalog;
  db: BenchDatabase;
  /** stopped at clean-up, as is `stack` */
  children: Child[];
  stack?: Stack;
}

/** The stack started, users made, the catalog imported; what is measured before any load. */
interface Prepared {
  live: Stack;
  users: BenchUser[];
  apiKey: string;
  imported: ImportResult;
  quality?: QualityReport;
  feed: FeedResult;
  baseline: Child & { url: string };
}

async function prepareStack(run: MemoryRun): Promise<Prepared> {
  const { options, catalog, db } = run;
  const nodeArgs = options.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(RESULTS, 'profiles')}`] : [];
  const firstState = run.cacheStates[0] ?? 'on';
  const live = await startStack({
    databaseUrl: db.url,
    logLevel: process.env.LOG_LEVEL ?? 'warn',
    nodeArgs,
    catalogEnv: CACHE_ENV[firstState].catalog,
    gatewayEnv: CACHE_ENV[firstState].gateway,
  });
  run.stack = live;
  progress(
    `services: gateway ${live.gateway.url}, catalog ${live.catalog.url}, collections ${live.collections.url}`,
    true,
  );
  const gw = live.gateway.url;
  const users = await createUsers(gw, live.adminToken, 8, 8);
  progress(`users: ${users.length} pro accounts, ${users.length * 8} collections`, true);
  const apiKey = users[0]?.apiKey ?? '';

  phaseTitle('import (admin NDJSON through the gateway)');
  // the judgments are searched once every item can be found by meaning too
  const chunk = options.quick ? 5_000 : 10_000;
  const imported = await importCatalog(
    gw,
    live.adminToken,
    live.catalog.url,
    db.url,
    catalog.lines,
    chunk,
    progress,
    undefined,
    options.quality,
  );

  // Quality before any load: the index holds exactly the catalog (no lag probes yet).
  let quality: QualityReport | undefined;
  if (options.quality) {
    phaseTitle('search quality (judgment sets from the catalog, sequential through the gateway)');
    quality = await measureQuality(gw, apiKey, catalog.lines, progress);
  }

  phaseTitle('changes feed (one client through the gateway, from the start, 500 an answer)');
  const feed: FeedResult = await readChangesFeed(gw, apiKey, progress);

  // The baseline answers a real, full 20-item search response body, so bytes on the wire match.
  const sample = await fetch(`${gw}/api/v1/skills?limit=20`, { headers: { authorization: `Bearer ${apiKey}` } });
  const bodyFile = join(tmpdir(), `bench-baseline-${process.pid}.json`);
  await writeFile(bodyFile, await sample.text());
  const baseline = await startBaseline(bodyFile);
  run.children.push(baseline);
  return { live, users, apiKey, imported, quality, feed, baseline };
}

interface Measured {
  results: LoadResult[];
  footprint: CatalogFootprint;
  lag?: ReturnType<typeof lagOf>;
  lagState: CacheState;
}

/** The baseline, the search phases per cache state, collections, then the index lag. */
async function measureLoads(run: MemoryRun, prepared: Prepared): Promise<Measured> {
  const { options, cacheStates, catalog } = run;
  const { durationSec, warmupSec, connections } = options;
  const { live, users, baseline } = prepared;
  const gw = live.gateway.url;
  const cpuSources = async (): Promise<CpuSources> => {
    const sources = await stackCpuSources(live, run.db);
    return { ...sources, pids: { ...sources.pids, baseline: baseline.process.pid } };
  };
  const runPhase = async (
    make: () => Phase,
    counts: readonly number[] = connections,
    note?: string,
  ): Promise<LoadResult[]> => {
    phaseTitle(make().scenario);
    if (note) progress(note, true);
    const out: LoadResult[] = [];
    for (const c of counts)
      out.push(await runMeasuredLoad(make, { connections: c, durationSec, warmupSec, progress }, cpuSources));
    return out;
  };
  const results: LoadResult[] = [...(await runPhase(() => baselinePhase(baseline.url)))];
  const footprint: CatalogFootprint = {};
  for (const [k, state] of cacheStates.entries()) {
    if (k > 0) footprint.readySec ??= await switchSearchCache(live, state, progress);
    const search = {
      stack: live,
      users,
      catalog: catalog.lines,
      connections,
      durationSec,
      warmupSec,
      progress,
      phaseTitle,
      cpuSources,
    };
    results.push(...(await runSearchPhases(search, state)));
    const rss = await residentBytes(live.catalog.url);
    if (rss !== undefined) footprint.rssBytes = Math.max(footprint.rssBytes ?? 0, rss);
  }
  // collections and the index lag are measured as deployed: with the defaults (the cache on), unless only off was asked for
  const lagState: CacheState = options.searchCache === 'off' ? 'off' : 'on';
  if (cacheStates[cacheStates.length - 1] !== lagState)
    footprint.readySec ??= await switchSearchCache(live, lagState, progress);
  results.push(...(await runPhase(() => collectionReadPhase(gw, users))));
  // More writers than the gateway's write places are shed with 503 + Retry-After by design (docs/operations.md),
  // which the overload bench measures with clients that honour it; here writers that never pause would measure the shedding.
  const writers = connections.filter((c) => c <= DEFAULT_ADMISSION.writes);
  const left = connections.filter((c) => !writers.includes(c));
  const note =
    left.length > 0
      ? `not at ${left.join('/')} connections: more than the gateway's ${DEFAULT_ADMISSION.writes} write places`
      : undefined;
  results.push(...(await runPhase(() => collectionPatchPhase(gw, users, catalog.lines), writers, note)));
  return { results, footprint, lag: await measureLag(options.lagWrites, prepared, lagState), lagState };
}

async function measureLag(
  lagWrites: number,
  { live, apiKey }: Prepared,
  lagState: CacheState,
): Promise<ReturnType<typeof lagOf> | undefined> {
  if (lagWrites <= 0) return undefined;
  phaseTitle(`index lag (${lagWrites} admin writes, each searched for until found; search cache ${lagState})`);
  const lag = lagOf(await measureIndexLag(live.gateway.url, live.adminToken, apiKey, lagWrites, progress));
  progress(
    `index lag: p50 ${lag.p50Ms.toFixed(1)} ms, p99 ${lag.p99Ms.toFixed(1)} ms, max ${lag.maxMs.toFixed(1)} ms`,
    true,
  );
  return lag;
}

type Report = ReturnType<typeof reportOf>;

/** What results/<stamp>.json holds, the targets judged. */
function reportOf(
  run: MemoryRun,
  { imported, quality, feed }: Prepared,
  { results, footprint, lag, lagState }: Measured,
) {
  const { options, catalog, db } = run;
  const targets = checkTargets(results, lag, imported, {
    broad: options.vocabulary === 'broad' && !options.corpus,
    items: catalog.source.items,
    catalogService: footprint,
    feed,
  });
  return {
    at: new Date().toISOString(),
    items: catalog.source.items,
    catalog: catalog.source,
    database: db.kind,
    // the engine catalog-service ran: the caller's SEARCH_ENGINE, else the service's own default
    searchEngine: process.env.SEARCH_ENGINE ?? 'service default',
    searchCache: options.searchCache,
    durationSec: options.durationSec,
    warmupSec: options.warmupSec,
    connections: options.connections,
    node: process.version,
    results,
    import: imported,
    indexLag: lag ? { ...lag, searchCache: lagState } : undefined,
    catalogService: footprint,
    changesFeed: feed,
    quality,
    targets,
    /** the charts' and the results table's title */
    title: `${catalog.source.items.toLocaleString('en')} items${catalog.source.kind === 'corpus' ? ' (corpus)' : catalog.source.kind === 'broad' ? ' (broad vocabulary)' : ''}, ${db.kind === 'postgres' ? 'Postgres server' : 'PGlite'}`,
  };
}

function printReport(run: MemoryRun, report: Report): void {
  const { results, quality, changesFeed: feed, catalogService: footprint, indexLag: lag, targets } = report;
  const imported = report.import;
  const out = (text: string) => process.stdout.write(text);
  out(`\n== results (${report.title})\n${formatTable(results)}\n\n`);
  const cpuRows = results.map((r) => ({ label: `${r.scenario} @ ${r.connections}`, cpu: r.cpuMsPerRequest ?? {} }));
  out(
    `CPU ms per request of the measured run (database: ${run.db.kind === 'postgres' ? 'every process of the server' : 'PGlite'})\n${formatCpuTable(cpuRows)}\n\n`,
  );
  out(`latency per query class (measured in the bench process, send to last byte)\n${formatClassTable(results)}\n\n`);
  if (quality)
    out(
      `search quality (${quality.perSet} judgments per set, through the gateway)\n${formatQualityTable(quality.sets)}\n\n`,
    );
  out(
    `import: ${imported.recordPerSec.toFixed(0)} items/s into the system of record, ${imported.indexPerSec.toFixed(0)} items/s until searchable; ` +
      `all searchable ${imported.searchableAfterImportSec.toFixed(1)} s after the import answered (${imported.indexSource === 'metric' ? 'index gauge' : 'read-model rows'})\n`,
  );
  const mb = footprint.rssBytes === undefined ? '–' : `${(footprint.rssBytes / 1024 ** 2).toFixed(0)} MB`;
  const ready =
    footprint.readySec === undefined ? 'not restarted' : `restart to ready ${footprint.readySec.toFixed(1)} s`;
  out(`catalog-service: RSS ${mb} after the search runs (highest reading), ${ready}\n`);
  out(
    `changes feed: ${feed.changes.toLocaleString('en')} changes read in ${feed.seconds.toFixed(1)} s, ${feed.itemsPerSec.toFixed(0)} items/s\n`,
  );
  if (lag)
    out(
      `index lag: p50 ${lag.p50Ms.toFixed(1)} ms, p99 ${lag.p99Ms.toFixed(1)} ms over ${lag.samples} writes (search cache ${lag.searchCache})\n`,
    );
  out('\n');
  for (const t of targets) out(`${t.ok ? 'PASS' : 'MISS'}  ${t.name}: ${t.measured}\n`);
}

async function writeReport({ title, ...report }: Report, quick: boolean): Promise<void> {
  await mkdir(RESULTS, { recursive: true });
  const stamp = report.at.replace(/[:.]/g, '-');
  const json = `${JSON.stringify(report, null, 2)}\n`;
  await writeFile(join(RESULTS, `${stamp}.json`), json);
  // A --quick run must not replace the full run that docs/performance.md quotes.
  const suffix = quick ? '-quick' : '';
  await writeFile(join(RESULTS, `latest${suffix}.json`), json);
  await writeFile(
    join(RESULTS, `runs${suffix}.svg`),
    runsChart(report.results, `Throughput and latency against connections (${title})`),
  );
  await writeFile(
    join(RESULTS, `latency-classes${suffix}.svg`),
    classLatencyChart(report.results, `Search latency per query class (${title})`),
  );
  process.stdout.write(
    `\nwritten: bench/results/${stamp}.json, latest${suffix}.json, runs${suffix}.svg, latency-classes${suffix}.svg\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`\nbench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
