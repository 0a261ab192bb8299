/**
 * `npm run bench [-- --items N] [--quick] [--duration S] [--profile]`: loads a
 * generated catalog through the admin import, then measures the baseline,
 * search (direct and via the gateway), collections and index lag at several
 * connection counts; prints one table, writes bench/results/<ts>.json,
 * latest.json and latency.svg. DATABASE_URL: a fresh bench_<ts> database on
 * that server (dropped afterwards); else PGlite in memory.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { hitRate, searchCacheCounts } from './cache-counts';
import { latencyChart } from './chart';
import { explainAll } from './explain';
import { runLoad, type Phase } from './load';
import { baselinePhase, collectionPatchPhase, collectionReadPhase, searchDirectPhase, searchGatewayPhase } from './phases';
import { startBaseline, startDatabase, startStack, stopChild, type Child } from './processes';
import { createUsers, importCatalog, measureIndexLag } from './setup';
import { checkTargets, formatTable, lagOf, type LoadResult } from './stats';

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
  const { values } = parseArgs({
    options: {
      items: { type: 'string' },
      quick: { type: 'boolean', default: false },
      duration: { type: 'string' },
      connections: { type: 'string' },
      'lag-writes': { type: 'string' },
      profile: { type: 'boolean', default: false },
      explain: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
    },
  });
  const quick = values.quick ?? false;
  const items = Number(values.items ?? (quick ? 5_000 : 100_000));
  const durationSec = Number(values.duration ?? (quick ? 3 : 10));
  const warmupSec = quick ? 1 : 3;
  const connections = (values.connections ?? '1,16,64').split(',').map(Number);
  const lagWrites = Number(values['lag-writes'] ?? (quick ? 50 : 200));
  const mixSize = 2_000;
  const databaseUrl = process.env.DATABASE_URL || undefined;

  phaseTitle(`setup: ${items} items, ${durationSec} s per run after ${warmupSec} s warm-up, connections ${connections.join('/')}`);
  const db = await startDatabase(databaseUrl);
  progress(`database: ${db.kind} ${db.name} ${db.url}`, true);
  const children: Child[] = [];
  let stack: Awaited<ReturnType<typeof startStack>> | undefined;
  const cleanup = async () => {
    for (const child of children) await stopChild(child).catch(() => undefined);
    await stack?.stop().catch(() => undefined);
    if (values.keep && db.kind === 'postgres') process.stdout.write(`kept database ${db.url}\n`);
    else await db.drop().catch((err: unknown) => process.stderr.write(`could not drop ${db.name}: ${String(err)}\n`));
  };
  // Ctrl-C (or a CI timeout) must not leave the services and the database running.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: stopping the services\n`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  try {
    const nodeArgs = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(RESULTS, 'profiles')}`] : [];
    stack = await startStack({ databaseUrl: db.url, logLevel: process.env.LOG_LEVEL ?? 'warn', nodeArgs });
    progress(`services: gateway ${stack.gateway.url}, catalog ${stack.catalog.url}, collections ${stack.collections.url}`, true);
    const gw = stack.gateway.url;
    const users = await createUsers(gw, stack.adminToken, 8, 8);
    progress(`users: ${users.length} pro accounts, ${users.length * 8} collections`, true);

    phaseTitle('import (admin NDJSON through the gateway)');
    const imported = await importCatalog(gw, stack.adminToken, db.url, items, quick ? 5_000 : 10_000, progress);

    if (values.explain) {
      await mkdir(RESULTS, { recursive: true });
      await writeFile(join(RESULTS, 'explain.txt'), await explainAll(db.url));
      progress('query plans written to bench/results/explain.txt', true);
    }

    // The baseline answers a real search response body, so bytes on the wire match.
    const sample = await fetch(`${gw}/api/v1/skills?q=validator&limit=20`, { headers: { authorization: `Bearer ${users[0]?.apiKey}` } });
    const bodyFile = join(tmpdir(), `bench-baseline-${process.pid}.json`);
    await writeFile(bodyFile, await sample.text());
    const baseline = await startBaseline(bodyFile);
    children.push(baseline);

    const phases: Array<[string, () => Phase]> = [
      ['baseline', () => baselinePhase(baseline.url)],
      ['search direct', () => searchDirectPhase(stack!.catalog.url, stack!.principalSecret, users, mixSize)],
      ['search via gateway', () => searchGatewayPhase(gw, users, mixSize)],
      ['collection read', () => collectionReadPhase(gw, users)],
      ['collection PATCH', () => collectionPatchPhase(gw, users, items)],
    ];
    const results: LoadResult[] = [];
    for (const [name, make] of phases) {
      phaseTitle(name);
      for (const c of connections) {
        // search phases: the share catalog-service's search cache answered (warm-up included)
        const before = name.startsWith('search') ? await searchCacheCounts(stack.catalog.url) : undefined;
        const result = await runLoad(make, { connections: c, durationSec, warmupSec, progress });
        if (before) {
          result.searchCacheHitRate = hitRate(before, await searchCacheCounts(stack.catalog.url));
          progress(`${name}, ${c} connections: search cache hit rate ${(result.searchCacheHitRate * 100).toFixed(1)} %`, true);
        }
        results.push(result);
      }
    }

    phaseTitle(`index lag (${lagWrites} admin writes, each searched for until found)`);
    const lag = lagOf(await measureIndexLag(gw, stack.adminToken, users[0]?.apiKey ?? '', lagWrites, progress));
    progress(`index lag: p50 ${lag.p50Ms.toFixed(1)} ms, p99 ${lag.p99Ms.toFixed(1)} ms, max ${lag.maxMs.toFixed(1)} ms`, true);

    const targets = checkTargets(results, lag, imported);
    const title = `${items.toLocaleString('en')} items, ${db.kind === 'postgres' ? 'Postgres server' : 'PGlite'}`;
    process.stdout.write(`\n== results (${title})\n${formatTable(results)}\n\n`);
    process.stdout.write(
      `import: ${imported.recordPerSec.toFixed(0)} items/s into the system of record, ${imported.indexPerSec.toFixed(0)} items/s into the index\n`,
    );
    process.stdout.write(`index lag: p50 ${lag.p50Ms.toFixed(1)} ms, p99 ${lag.p99Ms.toFixed(1)} ms over ${lag.samples} writes\n\n`);
    for (const t of targets) process.stdout.write(`${t.ok ? 'PASS' : 'MISS'}  ${t.name}: ${t.measured}\n`);

    const report = {
      at: new Date().toISOString(),
      items,
      database: db.kind,
      durationSec,
      warmupSec,
      connections,
      node: process.version,
      results,
      import: imported,
      indexLag: lag,
      targets,
    };
    await mkdir(RESULTS, { recursive: true });
    const stamp = report.at.replace(/[:.]/g, '-');
    const json = `${JSON.stringify(report, null, 2)}\n`;
    await writeFile(join(RESULTS, `${stamp}.json`), json);
    // A --quick run must not replace the full run that docs/performance.md quotes.
    const suffix = quick ? '-quick' : '';
    await writeFile(join(RESULTS, `latest${suffix}.json`), json);
    await writeFile(join(RESULTS, `latency${suffix}.svg`), latencyChart(results, `Latency against connections (${title})`));
    process.stdout.write(`\nwritten: bench/results/${stamp}.json, latest${suffix}.json, latency${suffix}.svg\n`);
  } finally {
    await cleanup();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`\nbench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
