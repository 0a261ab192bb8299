/**
 * `npm run bench -- --engine elasticsearch`: catalog-service on Elasticsearch
 * (a fresh alias of the run's own), the catalog imported through the gateway
 * until the alias can search every active item, then, per connection count,
 * the bare baseline (elasticsearch-baseline.ts) and the long-tail mix via the
 * gateway, back to back with the same queries, so both meet the same node in
 * the same state of a shared machine. Writes bench/results/<ts>.json,
 * latest-elasticsearch.json and its two charts.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { describeCatalog, loadCatalog } from './catalog';
import { classLatencyChart } from './class-chart';
import { formatClassTable } from './class-stats';
import { runsChart } from './chart';
import { formatCpuTable, runMeasuredLoad } from './cpu-accounting';
import type { BenchOptions } from './cli-options';
import { buildBaselineIndex, elasticsearchBaselinePhase } from './elasticsearch-baseline';
import { deleteIndices, elasticsearchNode, searchableCount, waitForMerges } from './elasticsearch-node';
import { elasticsearchTargets, ES_BASELINE } from './elasticsearch-targets';
import type { Phase, RunPart } from './load';
import { searchGatewayPhase } from './phases';
import { cleanUpOnSignal, stackCpuSources, startDatabase, startStack, type Stack } from './processes';
import { formatQualityTable } from './quality';
import { measureQuality, type QualityReport } from './quality-run';
import { longTailMix, seedOf } from './query-mix';
import { CACHE_ENV, switchSearchCache, type CacheState } from './search-runs';
import { createUsers, importCatalog } from './setup';
import { cacheOff, formatTable, SCENARIOS, type LoadResult } from './stats';

export interface ReportSinks {
  progress(text: string, done: boolean): void;
  phaseTitle(name: string): void;
  /** where the JSON report and charts go */
  resultsDir: string;
}

const load1 = (): number => loadavg()[0] as number;

export async function runElasticsearchBench(options: BenchOptions, sinks: ReportSinks): Promise<void> {
  const { progress, phaseTitle } = sinks;
  const { quick, durationSec, warmupSec, connections } = options;
  const cacheStates: CacheState[] = options.searchCache === 'both' ? ['on', 'off'] : [options.searchCache];
  const loadAtStart = loadavg();
  phaseTitle(
    `setup (Elasticsearch): ${durationSec} s per run after ${warmupSec} s warm-up, connections ${connections.join('/')}, search cache ${cacheStates.join(' then ')}; load ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}`,
  );
  const node = await elasticsearchNode(options.elasticsearchUrl);
  // lower case and digits only: index names must be; the stamp tells a killed run's leftovers apart
  const alias = `bench-${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}`;
  const baselineIndex = `${alias}-baseline`;
  progress(`elasticsearch: ${node.version} at ${node.url}, alias ${alias}, baseline index ${baselineIndex}`, true);
  const catalog = await loadCatalog({
    corpus: options.corpus,
    items: options.items,
    vocabulary: options.vocabulary,
    progress,
  });
  progress(`catalog: ${describeCatalog(catalog.source)}`, true);
  const db = await startDatabase(process.env.DATABASE_URL || undefined);
  progress(`database: ${db.kind} ${db.name} ${db.url}`, true);
  let stack: Stack | undefined;
  const cleanup = async () => {
    await stack?.stop().catch(() => undefined);
    await db.drop().catch((err: unknown) => process.stderr.write(`could not drop ${db.name}: ${String(err)}\n`));
    if (options.keep) process.stdout.write(`kept the indices ${alias}* on ${node.url}\n`);
    else
      await deleteIndices(node.url, alias).catch((err: unknown) =>
        process.stderr.write(`could not delete the indices ${alias}*: ${String(err)}\n`),
      );
  };
  cleanUpOnSignal(cleanup, "stopping the services, deleting the run's indices");
  try {
    const first = cacheStates[0] ?? 'off';
    const engineEnv = { SEARCH_ENGINE: 'elasticsearch', ELASTICSEARCH_URL: node.url, ELASTICSEARCH_INDEX: alias };
    stack = await startStack({
      databaseUrl: db.url,
      logLevel: process.env.LOG_LEVEL ?? 'warn',
      nodeArgs: options.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(sinks.resultsDir, 'profiles')}`] : [],
      catalogEnv: { ...engineEnv, ...CACHE_ENV[first].catalog },
      gatewayEnv: CACHE_ENV[first].gateway,
    });
    const live = stack;
    const gw = live.gateway.url;
    progress(`services: gateway ${gw}, catalog ${live.catalog.url} (SEARCH_ENGINE=elasticsearch)`, true);
    // no collections: the Elasticsearch mode measures search only
    const users = await createUsers(gw, live.adminToken, 8, 0);

    phaseTitle('import (admin NDJSON through the gateway, until the alias can search every active item)');
    const imported = await importCatalog(
      gw,
      live.adminToken,
      live.catalog.url,
      db.url,
      catalog.lines,
      quick ? 5_000 : 10_000,
      progress,
      searchableCount(node.url, alias),
      options.quality,
    );

    let quality: QualityReport | undefined;
    if (options.quality) {
      phaseTitle('search quality (judgment sets from the catalog, sequential through the gateway)');
      quality = await measureQuality(gw, users[0]?.apiKey ?? '', catalog.lines, progress);
    }

    phaseTitle(`bare baseline index (${baselineIndex}: name^3 + description, standard analyzer)`);
    const baselineIndexSec = await buildBaselineIndex(node.url, baselineIndex, catalog.lines, progress);
    await waitForMerges(node.url, alias, progress);

    const results: LoadResult[] = [];
    // Same seed for the baseline and the gateway: both send the same queries, in the same order.
    const mix = (c: number, part: RunPart) =>
      longTailMix(catalog.lines, seedOf(`elasticsearch long tail|${c}|${part}`));
    const measure = async (make: (part: RunPart) => Phase, c: number): Promise<LoadResult> => {
      const result = await runMeasuredLoad(make, { connections: c, durationSec, warmupSec, progress }, () =>
        stackCpuSources(live, db, node.url),
      );
      result.loadAverage = load1();
      results.push(result);
      return result;
    };
    for (const [k, state] of cacheStates.entries()) {
      if (k > 0) await switchSearchCache(live, state, progress);
      const gatewayScenario = state === 'off' ? cacheOff(SCENARIOS.longTailGateway) : SCENARIOS.longTailGateway;
      phaseTitle(`${ES_BASELINE} beside ${gatewayScenario}, per connection count`);
      for (const c of connections) {
        if (k === 0)
          await measure((part) => elasticsearchBaselinePhase(ES_BASELINE, node.url, baselineIndex, mix(c, part)), c);
        const result = await measure((part) => searchGatewayPhase(gatewayScenario, gw, users, mix(c, part)), c);
        result.searchCache = state;
      }
    }

    const loadAtEnd = loadavg();
    const ordered = [...results].sort(
      (a, b) => Number(b.scenario === ES_BASELINE) - Number(a.scenario === ES_BASELINE),
    );
    const targets = elasticsearchTargets(ordered, imported);
    const title = `${catalog.source.items.toLocaleString('en')} items${catalog.source.kind === 'corpus' ? ' (corpus)' : ''}, Elasticsearch ${node.version}`;
    const loads = (l: number[]) => l.map((v) => v.toFixed(2)).join(' ');
    process.stdout.write(
      `\n== results (${title}; load ${loads(loadAtStart)} → ${loads(loadAtEnd)})\n${formatTable(ordered, ES_BASELINE)}\n\n`,
    );
    process.stdout.write(
      `load average (1 min) at the end of each run: ${ordered.map((r) => `${r.scenario === ES_BASELINE ? 'baseline' : 'gateway'}@${r.connections} ${r.loadAverage?.toFixed(2)}`).join(', ')}\n\n`,
    );
    const cpuRows = ordered.map((r) => ({
      label: `${r.scenario === ES_BASELINE ? 'bare baseline' : 'via gateway'} @ ${r.connections} conn`,
      cpu: r.cpuMsPerRequest ?? {},
    }));
    process.stdout.write(
      `CPU ms per request of the measured run (the baseline's requests never reach the services)\n${formatCpuTable(cpuRows)}\n\n`,
    );
    process.stdout.write(
      `latency per query class (measured in the bench process, send to last byte)\n${formatClassTable(ordered)}\n\n`,
    );
    if (quality)
      process.stdout.write(
        `search quality (${quality.perSet} judgments per set, through the gateway, Elasticsearch)\n${formatQualityTable(quality.sets)}\n\n`,
      );
    process.stdout.write(
      `import: ${imported.recordPerSec.toFixed(0)} items/s into the system of record, ${(imported.items / imported.indexPerSec).toFixed(1)} s from the first import request until all searchable, ` +
        `${imported.searchableAfterImportSec.toFixed(1)} s of it after the import answered; bare baseline index built in ${baselineIndexSec.toFixed(1)} s\n\n`,
    );
    for (const t of targets) process.stdout.write(`${t.ok ? 'PASS' : 'MISS'}  ${t.name}: ${t.measured}\n`);

    const report = {
      at: new Date().toISOString(),
      items: catalog.source.items,
      catalog: catalog.source,
      database: db.kind,
      searchEngine: 'elasticsearch',
      elasticsearch: { version: node.version, url: node.url, alias, baselineIndex, baselineIndexSec },
      searchCache: options.searchCache,
      durationSec,
      warmupSec,
      connections,
      node: process.version,
      loadAverage: { start: loadAtStart, end: loadAtEnd },
      results: ordered,
      import: imported,
      quality,
      targets,
    };
    await mkdir(sinks.resultsDir, { recursive: true });
    const stamp = report.at.replace(/[:.]/g, '-');
    const json = `${JSON.stringify(report, null, 2)}\n`;
    const suffix = `-elasticsearch${quick ? '-quick' : ''}`;
    await writeFile(join(sinks.resultsDir, `${stamp}.json`), json);
    await writeFile(join(sinks.resultsDir, `latest${suffix}.json`), json);
    await writeFile(
      join(sinks.resultsDir, `runs${suffix}.svg`),
      runsChart(ordered, `Throughput and latency against connections (${title})`),
    );
    await writeFile(
      join(sinks.resultsDir, `latency-classes${suffix}.svg`),
      classLatencyChart(ordered, `Search latency per query class (${title})`),
    );
    process.stdout.write(
      `\nwritten: bench/results/${stamp}.json, latest${suffix}.json, runs${suffix}.svg, latency-classes${suffix}.svg\n`,
    );
  } finally {
    await cleanup();
  }
}
