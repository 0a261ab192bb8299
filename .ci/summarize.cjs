#!/usr/bin/env node
/**
 * Summarises the jest runs of .ci/run.
 *
 *   node .ci/summarize.cjs NAME EXIT REPORT [NAME EXIT REPORT ...]
 *
 * NAME is the run's label (pglite, postgres), EXIT the exit code of its
 * `npm test` (or, for a run that could not start, the reason), REPORT the
 * `jest --json` output file ("-" when the run never started).
 *
 * Prints a report to stderr (runs, suites that failed to load, skipped tests,
 * optional suites) and then exactly one line to stdout:
 *
 *   N passed, N failed, N skipped
 *
 * Exit code 1 when N failed > 0. The counting is arranged so that a run that
 * did not succeed can never read "0 failed": every way a run can fail without
 * a failing assertion (suite that did not load, missing report, jest exiting
 * non-zero, ...) adds at least one failure.
 */
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const rel = (p) => (p.startsWith(ROOT + path.sep) ? p.slice(ROOT.length + 1) : p);

/**
 * The optional suites skip themselves when what they need is absent, and
 * jest reports them as pending. A skip is not a failure, but CI must say
 * which of them ran. Tests are recognised by their top-level describe()
 * title; keep these in step with the test files named in the comments.
 */
const OPTIONAL = [
  {
    // catalog-service/test/events/kafka-{event-log.mock,pipeline,services}.test.ts
    // (kafka-services also needs DATABASE_URL, so it is skipped on PGlite)
    name: 'Kafka mock cluster',
    title: /mock cluster/i,
    probe: kafkaAddon,
  },
  {
    // standalone/test/e2e/api-contract.test.ts, skipped without /usr/bin/chromium
    name: 'Chromium docs page',
    title: /docs page in headless Chromium/i,
    probe: chromium,
  },
  {
    // standalone/test/e2e/console.test.ts (playwright-core driving Debian's
    // Chromium, axe-core), skipped without /usr/bin/chromium
    name: 'Chromium console',
    title: /console in headless Chromium/i,
    probe: chromium,
  },
  {
    // gateway/test/integration/redis-rate-limit.test.ts, skipped when
    // REDIS_URL (default redis://127.0.0.1:6379) does not answer PING
    name: 'Redis live store',
    title: /on a live Redis/i,
    probe: redis,
  },
];

/** Is the native addon of the mock cluster built, and does it load (the tests' own condition)? */
async function kafkaAddon() {
  const pkg = path.join(ROOT, 'node_modules/@confluentinc/kafka-javascript');
  const addon = path.join(pkg, 'build/Release/confluent-kafka-javascript.node');
  if (!fs.existsSync(pkg)) return 'package not installed (its build failed in npm ci?)';
  if (!fs.existsSync(addon)) return `no ${rel(addon).replace('node_modules/@confluentinc/kafka-javascript/', '…/')}`;
  const load = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(pkg)})`], { encoding: 'utf8', timeout: 20_000 });
  if (load.status !== 0) return `addon built but does not load: ${firstLine(load.stderr)}`;
  return 'addon built, loads';
}

async function chromium() {
  try {
    fs.accessSync('/usr/bin/chromium', fs.constants.X_OK);
    return '/usr/bin/chromium present';
  } catch {
    return 'no /usr/bin/chromium';
  }
}

/** The same probe as the test: a PING answered by +PONG within 1.5 s. */
function redis() {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  let host, port;
  try {
    const u = new URL(url);
    host = u.hostname;
    port = Number(u.port || 6379);
  } catch {
    return Promise.resolve(`REDIS_URL is not a URL: ${url}`);
  }
  return new Promise((resolve) => {
    const done = (answer) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(`${host}:${port} ${answer ? 'answers PING' : 'does not answer'}`);
    };
    const socket = net.connect(port, host);
    const timer = setTimeout(() => done(false), 1500);
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => done(String(d).startsWith('+PONG')));
    socket.on('error', () => done(false));
  });
}

function stripAnsi(text) {
  return String(text).replace(/\x1b\[[0-9;]*m/g, '');
}

function firstLine(text) {
  return String(text ?? '').split('\n').map((l) => l.trim()).find(Boolean) ?? '';
}

/** "3 passed, 1 skipped": only the non-zero parts. */
function counts(c) {
  const parts = ['passed', 'failed', 'skipped'].filter((k) => c[k] > 0).map((k) => `${c[k]} ${k}`);
  return parts.length ? parts.join(', ') : 'no tests';
}

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => '  ' + r.map((cell, i) => String(cell).padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}

function readRun(name, exit, file) {
  const run = { name, exit, started: file !== '-', passed: 0, failed: 0, skipped: 0, suites: 0, notes: [], loadFailures: [], skippedSuites: [], report: null };
  if (file === '-') {
    // The run never started (e.g. the test database does not answer): that is a failure.
    run.failed = 1;
    run.notes.push(`not run: ${exit}`);
    return run;
  }
  let r;
  try {
    r = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    // npm test crashed (build error, jest crash) before writing its report.
    run.failed = 1;
    run.notes.push(`no report (${e.code === 'ENOENT' ? 'not written' : firstLine(e.message)}), npm test exit ${exit}`);
    return run;
  }
  run.report = r;
  run.passed = r.numPassedTests;
  run.failed = r.numFailedTests;
  run.skipped = r.numPendingTests + (r.numTodoTests ?? 0);
  run.suites = r.numTotalTestSuites;

  for (const suite of r.testResults ?? []) {
    const statuses = suite.assertionResults.map((a) => a.status);
    // A suite that did not load (syntax/import error, a throw at describe
    // level) or threw outside any test (afterAll) has status "failed" and a
    // message but no failed assertion: jest's numFailedTests does not count
    // it, and the old summary printed "0 failed" for it.
    if (suite.status === 'failed' && !statuses.includes('failed')) {
      run.loadFailures.push({ file: rel(suite.name), message: suite.message ?? '' });
    }
    // pending (skip, describe.skip), todo, disabled: everything neither passed nor failed
    const skipped = statuses.filter((s) => s !== 'passed' && s !== 'failed').length;
    if (skipped > 0 || suite.status === 'skipped') {
      run.skippedSuites.push({ file: rel(suite.name), skipped, total: statuses.length, whole: skipped === statuses.length });
    }
  }
  run.failed += run.loadFailures.length;
  if (run.loadFailures.length) run.notes.push(`${run.loadFailures.length} suite(s) failed to run`);
  run.skippedSuites.sort((a, b) => a.file.localeCompare(b.file));

  // Any remaining sign of an unsuccessful run must still show up as a failure.
  if (run.failed === 0) {
    const why = [];
    if (r.numRuntimeErrorTestSuites > 0) why.push(`${r.numRuntimeErrorTestSuites} suite(s) with runtime errors`);
    if (r.wasInterrupted) why.push('run interrupted');
    if (r.snapshot?.failure) why.push('obsolete/failed snapshots');
    if (r.success === false && why.length === 0) why.push('jest reports success: false');
    if (String(exit) !== '0' && why.length === 0) why.push(`npm test exited ${exit}`);
    if (why.length) {
      run.failed = 1;
      run.notes.push(`${why.join(', ')}, counted as 1 failure`);
    }
  }
  return run;
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length === 0 || args.length % 3 !== 0) {
    console.error('usage: summarize.cjs NAME EXIT REPORT [NAME EXIT REPORT ...]');
    process.exit(2);
  }
  const runs = [];
  for (let i = 0; i < args.length; i += 3) runs.push(readRun(args[i], args[i + 1], args[i + 2]));
  const out = [];

  out.push('test runs:');
  out.push(
    table([
      ['run', 'passed', 'failed', 'skipped', 'suites', 'notes'],
      ...runs.map((r) => [r.name, r.passed, r.failed, r.skipped, r.suites, r.notes.join('; ')]),
    ]),
  );

  const loadFailures = runs.flatMap((r) => r.loadFailures.map((f) => ({ run: r.name, ...f })));
  if (loadFailures.length) {
    out.push('', 'SUITES THAT FAILED TO RUN (did not load, or threw outside any test; each counted as 1 failed test):');
    for (const f of loadFailures) {
      out.push(`  ${f.run}  ${f.file}`);
      const lines = stripAnsi(f.message).split('\n').map((l) => l.trimEnd()).filter((l) => l.trim());
      for (const l of lines.slice(0, 6)) out.push(`      ${l}`);
    }
  }

  const skipped = runs.flatMap((r) => r.skippedSuites.map((s) => ({ run: r.name, ...s })));
  if (skipped.length) {
    out.push('', 'skipped tests, by suite:');
    out.push(
      table([
        ['run', 'skipped', 'suite'],
        ...skipped.map((s) => [s.run, `${s.skipped}/${s.total}`, s.file + (s.whole ? '  (whole suite)' : '')]),
      ]),
    );
  }

  // What jest did with each optional group, per run, next to what is available here now.
  const probes = await Promise.all(OPTIONAL.map((o) => o.probe()));
  out.push('', 'optional suites:');
  out.push(
    table([
      ['suite', 'here', ...runs.map((r) => r.name)],
      ...OPTIONAL.map((o, i) => [
        o.name,
        probes[i],
        ...runs.map((r) => {
          if (!r.report) return r.started ? 'no report' : 'not run';
          const c = { passed: 0, failed: 0, skipped: 0 };
          for (const suite of r.report.testResults ?? []) {
            for (const a of suite.assertionResults) {
              if (!o.title.test(a.ancestorTitles[0] ?? '')) continue;
              if (a.status === 'passed') c.passed += 1;
              else if (a.status === 'failed') c.failed += 1;
              else c.skipped += 1;
            }
          }
          return counts(c);
        }),
      ]),
    ]),
  );

  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const r of runs) for (const k of Object.keys(total)) total[k] += r[k];

  // The report goes to stderr with the rest of the diagnostics, first; the
  // summary line alone goes to stdout, so .ci/run can print it last.
  process.stderr.write(out.join('\n') + '\n');
  process.stdout.write(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
  process.exitCode = total.failed > 0 ? 1 : 0;
}

main().catch((e) => {
  console.error(`summarize.cjs: ${e.stack ?? e}`);
  process.exit(2);
});
