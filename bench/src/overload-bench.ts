/**
 * `npm run bench -- --overload`: the stack as deployed (admission control,
 * event-loop shedding, caches on; only the per-key quota off, as in every
 * bench run), the catalog imported, then
 *
 * 1. overload: `--connections` (default 1,000) clients of long-tail searches
 *    with valid keys for `--duration` (default 30) s, twice: impatient
 *    clients (autocannon: the next request as soon as an answer arrives,
 *    Retry-After ignored, the worst there is), then clients that honour
 *    Retry-After (polite-load.ts). Each run judged by overload.ts.
 * 2. two sign-up floods of 200 at once, while one client searches with a
 *    valid key (its latency before and during each, p99 ≤ 1 s the target):
 *    each from its own address (X-Forwarded-For behind a trusted loopback
 *    proxy, so the per-address throttle does not stop them and every one
 *    could hash: the hashing semaphore's case), then all from one address
 *    (the throttle's and its cheap checks' case), on the gateway's defaults.
 *
 * Writes bench/results/<ts>-overload.json and latest-overload.json.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { describeCatalog, loadCatalog } from './catalog';
import type { BenchOptions } from './cli-options';
import type { ReportSinks } from './elasticsearch-bench';
import type { ImportLine } from './import-line';
import { cpuTimes, formatCpuTable, perRequest, type CpuTimes } from './cpu-accounting';
import { runLoad, type Phase } from './load';
import { floodTargets, formatStatuses, overloadTargets, OverloadRecorder, type SearchLoop } from './overload';
import { runPoliteLoad } from './polite-load';
import { searchGatewayPhase } from './phases';
import { cleanUpOnSignal, stackCpuSources, startDatabase, startStack, type Stack } from './processes';
import { longTailMix, seedOf } from './query-mix';
import { createUsers, importCatalog, type BenchUser } from './setup';
import { percentile } from './stats';

const FLOOD_SIGN_UPS = 200;
/** Between runs: the services' event loops catch up and stop shedding, so one run's backlog is not the next one's. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5_000));
const STARTED = '__overloadStarted';

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
};

/** The long-tail search mix via the gateway, each answer recorded with its status, latency and Retry-After. */
function overloadPhase(
  gateway: string,
  users: readonly BenchUser[],
  catalog: readonly ImportLine[],
  recorder: OverloadRecorder,
  seed: string,
): Phase {
  const search = searchGatewayPhase(
    'overload: long-tail search via the gateway',
    gateway,
    users,
    longTailMix(catalog, seedOf(seed)),
  );
  const step = search.requests[0];
  if (!step) throw new Error('the search phase has no request');
  return {
    scenario: search.scenario,
    url: gateway,
    requests: [
      {
        setup: (context) => {
          context[STARTED] = performance.now();
          return step.setup(context);
        },
        onResponse: (status, context, headers) =>
          recorder.record(status, performance.now() - (context[STARTED] as number), header(headers, 'retry-after')),
      },
    ],
  };
}

export interface FloodResult {
  signUps: Record<string, number>;
  /** from the first sign-up sent to the last answered */
  floodSec: number;
  searchBefore: SearchLoop;
  searchDuring: SearchLoop;
}

/** One client searching in a loop until `until()` says stop: each search's latency and whether it failed. */
async function searchLoop(
  gateway: string,
  apiKey: string,
  catalog: readonly ImportLine[],
  until: () => boolean,
  seed: string,
): Promise<SearchLoop> {
  const next = longTailMix(catalog, seedOf(seed));
  const ms: number[] = [];
  let errors = 0;
  while (!until()) {
    const started = performance.now();
    const res = await fetch(`${gateway}${next().path}`, { headers: { authorization: `Bearer ${apiKey}` } }).catch(
      () => undefined,
    );
    await res?.arrayBuffer();
    ms.push(performance.now() - started);
    if (!res?.ok) errors += 1;
  }
  return { searches: ms.length, p50Ms: percentile(ms, 50), p99Ms: percentile(ms, 99), errors };
}

/** 200 sign-ups at once, the i-th from address `from(i)`, while one client searches; its searches before and during. */
async function hashingFlood(
  gateway: string,
  apiKey: string,
  catalog: readonly ImportLine[],
  from: (i: number) => string,
): Promise<FloodResult> {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  let stopBefore = false;
  const before = searchLoop(gateway, apiKey, catalog, () => stopBefore, 'flood-before');
  await pause(5_000);
  stopBefore = true;
  const searchBefore = await before;

  let floodOver = false;
  const during = searchLoop(gateway, apiKey, catalog, () => floodOver, 'flood-during');
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: FLOOD_SIGN_UPS }, async (_, i) => {
      const res = await fetch(`${gateway}/api/v1/auth/sign-up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: gateway, 'x-forwarded-for': from(i) },
        body: JSON.stringify({
          email: `flood-${i}-${randomBytes(4).toString('hex')}@bench.example`,
          password: randomBytes(18).toString('base64url'),
          invitation: randomBytes(32).toString('base64url'),
        }),
      }).catch(() => undefined);
      await res?.arrayBuffer();
      return res ? String(res.status) : 'no answer';
    }),
  );
  const floodSec = (performance.now() - started) / 1000;
  // Work a server defers past its answer still takes CPU: keep searching a little after the last answer.
  await pause(2_000);
  floodOver = true;
  const signUps: Record<string, number> = {};
  for (const s of statuses.sort()) signUps[s] = (signUps[s] ?? 0) + 1;
  return { signUps, floodSec, searchBefore, searchDuring: await during };
}

export async function runOverloadBench(options: BenchOptions, sinks: ReportSinks): Promise<void> {
  const { progress, phaseTitle } = sinks;
  const connections = options.connections[0] ?? 1_000;
  const loadAtStart = loadavg();
  phaseTitle(
    `setup (overload): ${connections} connections for ${options.durationSec} s, then two floods of ${FLOOD_SIGN_UPS} sign-ups; load ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}`,
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
  let stack: Stack | undefined;
  const cleanup = async () => {
    await stack?.stop().catch(() => undefined);
    await db.drop().catch((err: unknown) => process.stderr.write(`could not drop ${db.name}: ${String(err)}\n`));
  };
  cleanUpOnSignal(cleanup);
  try {
    stack = await startStack({
      databaseUrl: db.url,
      logLevel: process.env.LOG_LEVEL ?? 'warn',
      nodeArgs: [],
      gatewayEnv: { SIGNUP_MODE: 'open', TRUST_PROXY: 'loopback' },
    });
    const gw = stack.gateway.url;
    progress(`services: gateway ${gw}, catalog ${stack.catalog.url}`, true);
    const users = await createUsers(gw, stack.adminToken, 8, 0);
    phaseTitle('import (admin NDJSON through the gateway)');
    await importCatalog(
      gw,
      stack.adminToken,
      stack.catalog.url,
      db.url,
      catalog.lines,
      options.quick ? 5_000 : 10_000,
      progress,
    );

    phaseTitle(
      `overload, impatient clients: ${connections} connections of searches with valid keys, Retry-After ignored, ${options.durationSec} s`,
    );
    const impatientRecorder = new OverloadRecorder();
    // CPU per answer of each process over the measured run (a refusal's cost is what sets how fast the line moves)
    const sources = await stackCpuSources(stack, db);
    let cpuBefore: CpuTimes = {};
    const run = await runLoad(
      (part) =>
        overloadPhase(gw, users, catalog.lines, part === 'run' ? impatientRecorder : new OverloadRecorder(), part),
      {
        connections,
        durationSec: options.durationSec,
        warmupSec: options.warmupSec,
        progress,
        beforeRun: async () => {
          cpuBefore = await cpuTimes(sources);
        },
      },
    );
    const impatient = impatientRecorder.summary(options.durationSec, run.noAnswer);
    const cpu: Record<string, CpuTimes> = {
      impatient: perRequest(cpuBefore, await cpuTimes(sources), impatient.answers),
    };
    progress(
      `impatient clients: ${run.noAnswer} without an answer, ${run.timeouts ?? 0} of them timed out after 10 s`,
      true,
    );
    await settle();

    phaseTitle(
      `overload, polite clients: ${connections} clients of searches with valid keys, each waiting Retry-After after a 503, ${options.durationSec} s`,
    );
    const politeRecorder = new OverloadRecorder();
    cpuBefore = await cpuTimes(sources);
    const next = longTailMix(catalog.lines, seedOf('overload-polite'));
    let turn = 0;
    const noAnswer = await runPoliteLoad({
      origin: gw,
      connections,
      durationSec: options.durationSec,
      next: () => ({ request: next(), authorization: `Bearer ${users[turn++ % users.length]?.apiKey ?? ''}` }),
      recorder: politeRecorder,
      progress,
    });
    const polite = politeRecorder.summary(options.durationSec, noAnswer);
    cpu.polite = perRequest(cpuBefore, await cpuTimes(sources), polite.answers);
    await settle();

    phaseTitle(`hashing flood: ${FLOOD_SIGN_UPS} sign-ups at once from as many addresses, one client searching`);
    const flood = await hashingFlood(
      gw,
      users[0]?.apiKey ?? '',
      catalog.lines,
      (i) => `10.${(i >> 8) & 255}.${i & 255}.7`,
    );
    await settle();
    phaseTitle(`sign-up flood: ${FLOOD_SIGN_UPS} sign-ups at once from one address, one client searching`);
    const oneAddressFlood = await hashingFlood(gw, users[0]?.apiKey ?? '', catalog.lines, () => '10.254.0.9');
    const floods = { 'sign-ups from 200 addresses': flood, 'sign-ups from one address': oneAddressFlood };

    const title = `${catalog.source.items.toLocaleString('en')} items, ${db.kind === 'postgres' ? 'Postgres server' : 'PGlite'}`;
    const runs = { impatient, polite };
    const targets = { impatient: overloadTargets(impatient), polite: overloadTargets(polite) };
    for (const kind of ['impatient', 'polite'] as const) {
      const s = runs[kind];
      process.stdout.write(
        `\n== overload, ${kind} clients (${title}, ${connections} connections, ${options.durationSec} s)\n${formatStatuses(s)}\n`,
      );
      process.stdout.write(
        `answers ${s.answersPerSec.toFixed(0)}/s, admitted ${s.admittedPerSec.toFixed(0)}/s; admitted p50 ${s.admittedP50Ms.toFixed(0)} ms, p99 ${s.admittedP99Ms.toFixed(0)} ms\n`,
      );
      for (const t of targets[kind]) process.stdout.write(`${t.ok ? 'PASS' : 'MISS'}  ${t.name}: ${t.measured}\n`);
    }
    const cpuRows = Object.entries(cpu).map(([label, times]) => ({ label: `${label} clients`, cpu: times }));
    process.stdout.write(`\nCPU ms per answer (200 or 503) of the measured run\n${formatCpuTable(cpuRows)}\n`);
    const fmt = (s: SearchLoop) =>
      `${s.searches} searches, p50 ${s.p50Ms.toFixed(0)} ms, p99 ${s.p99Ms.toFixed(0)} ms, ${s.errors} failed`;
    for (const [name, f] of Object.entries(floods)) {
      const signUps = Object.entries(f.signUps)
        .map(([s, c]) => `${c} × ${s}`)
        .join(', ');
      process.stdout.write(`\n== ${name}\nsign-ups: ${signUps}, all answered in ${f.floodSec.toFixed(1)} s\n`);
      process.stdout.write(`search before: ${fmt(f.searchBefore)}\nsearch during: ${fmt(f.searchDuring)}\n`);
      for (const t of floodTargets(name, f.searchDuring))
        process.stdout.write(`${t.ok ? 'PASS' : 'MISS'}  ${t.name}: ${t.measured}\n`);
    }

    const at = new Date().toISOString();
    const report = {
      at,
      mode: 'overload',
      items: catalog.source.items,
      catalog: catalog.source,
      database: db.kind,
      connections,
      durationSec: options.durationSec,
      node: process.version,
      loadAtStart,
      loadAtEnd: loadavg(),
      overload: runs,
      cpuMsPerAnswer: cpu,
      targets,
      flood,
      oneAddressFlood,
      floodTargets: Object.entries(floods).flatMap(([name, f]) => floodTargets(name, f.searchDuring)),
    };
    await mkdir(sinks.resultsDir, { recursive: true });
    const json = `${JSON.stringify(report, null, 2)}\n`;
    const stamp = at.replace(/[:.]/g, '-');
    await writeFile(join(sinks.resultsDir, `${stamp}-overload.json`), json);
    if (!options.quick) await writeFile(join(sinks.resultsDir, `latest-overload-${db.kind}.json`), json);
    process.stdout.write(
      `\nwritten: bench/results/${stamp}-overload.json${options.quick ? '' : `, latest-overload-${db.kind}.json`}\n`,
    );
  } finally {
    await cleanup();
  }
}
