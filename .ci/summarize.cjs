#!/usr/bin/env node
/**
 * Summarises the jest runs of .ci/run.
 *
 *   node .ci/summarize.cjs NAME EXIT REPORT [NAME EXIT REPORT ...]
 *
 * NAME is the run's label (pglite, or postgres for the run with
 * DATABASE_URL), EXIT the exit code of its `npm test` (or, for a run that
 * could not start, the reason), REPORT the `jest --json` output file ("-"
 * when the run never started).
 *
 * Prints a report to stderr (runs, suites that failed to load, skipped tests,
 * each optional suite's fate) and then exactly two lines to stdout:
 *
 *   N skipped
 *   N passed, N failed
 *
 * Exit code 1 when N failed > 0. The counting is arranged so that a run that
 * did not succeed can never read "0 failed": every way a run can fail without
 * a failing assertion (suite that did not load, missing report, jest exiting
 * non-zero, ...) adds at least one failure. A test may skip only as an
 * optional suite of .ci/optional-suites.cjs whose requirement is absent; a
 * test skipped while its requirement is present, or skipped with no
 * requirement at all, counts as failed instead of skipped. A suite that
 * looks store-bound without a store tag, and a store-specific suite of the
 * PGlite run that the server run left out, count as failed too
 * (.ci/store-suites.cjs).
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { REQUIREMENTS, SUITES, firstLine } = require('./optional-suites.cjs');
const { classify, problem } = require('./store-suites.cjs');

const ROOT = path.resolve(__dirname, '..');
const rel = (p) => (p.startsWith(ROOT + path.sep) ? p.slice(ROOT.length + 1) : p);

function stripAnsi(text) {
  // eslint-disable-next-line no-control-regex -- ESC is exactly what an ANSI colour code starts with
  return String(text).replace(/\x1b\[[0-9;]*m/g, '');
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

/**
 * Judges every skip of one run: each optional suite ran, was skipped for a
 * requirement absent here, or skipped although its requirement is present
 * (a failure); a skipped test no suite accounts for is a failure too. Moves
 * the wrongly skipped tests from the run's skipped count to its failed one.
 */
function judgeSkips(run, presence) {
  const fates = SUITES.map(() => 'not run');
  run.unexplained = [];
  if (!run.report) return fates;
  const tally = SUITES.map(() => ({ passed: 0, failed: 0, skipped: 0 }));
  for (const suite of run.report.testResults ?? []) {
    const file = rel(suite.name);
    for (const a of suite.assertionResults) {
      const fullName = a.fullName ?? [...a.ancestorTitles, a.title].join(' ');
      const index = SUITES.findIndex((s) => s.file === file && (!s.tests || s.tests.test(fullName)));
      const status = a.status === 'passed' || a.status === 'failed' ? a.status : 'skipped';
      if (index >= 0) tally[index][status] += 1;
      else if (status === 'skipped') run.unexplained.push(`${file}: ${fullName}`);
    }
  }
  let wrong = run.unexplained.length;
  let stale = 0;
  SUITES.forEach((suite, i) => {
    const c = tally[i];
    const absent = suite.needs.filter((need) => !presence[need].present);
    if (!fs.existsSync(path.join(ROOT, suite.file))) {
      // the table went stale (a file renamed or removed): its skips would go unjudged
      fates[i] = `FAILED: no file ${suite.file} (update .ci/optional-suites.cjs)`;
      stale += 1;
    } else if (c.passed + c.failed + c.skipped === 0) fates[i] = 'not in this run';
    else if (c.skipped === 0) fates[i] = `ran (${counts(c)})`;
    else if (absent.length > 0) fates[i] = `skipped: requirement absent (${absent.map((n) => presence[n].detail).join('; ')})`;
    else {
      fates[i] = `FAILED: requirement present but skipped (${c.skipped} test(s))`;
      wrong += c.skipped;
    }
  });
  run.skipped -= wrong;
  run.failed += wrong + stale;
  if (run.unexplained.length) run.notes.push(`${run.unexplained.length} test(s) skipped with no requirement`);
  if (wrong > run.unexplained.length) run.notes.push(`${wrong - run.unexplained.length} test(s) skipped while their requirement is present`);
  if (stale) run.notes.push(`${stale} optional suite(s) name no file, counted as failures`);
  return fates;
}

/**
 * Judges the store tags (.ci/store-suites.cjs): a suite of any run that looks
 * store-specific without saying which it is fails; so does a store-specific
 * suite of the PGlite run that the server run left out (its filter broke, or
 * the file went missing between the runs). Each counts as one failed test, on
 * the run it concerns. Returns the report's lines.
 */
function judgeStoreTags(runs) {
  const lines = [];
  const untagged = new Map(); // file -> problem, each file once over all runs
  const specific = (run) =>
    new Set(
      (run.report?.testResults ?? [])
        .map((suite) => suite.name)
        .filter((file) => {
          if (!fs.existsSync(file)) return false;
          const c = classify(file);
          const wrong = problem(c);
          if (wrong && !untagged.has(rel(file))) {
            untagged.set(rel(file), wrong);
            run.failed += 1;
            run.untagged = (run.untagged ?? 0) + 1;
          }
          return c.tag === 'store-specific';
        })
        .map(rel),
    );
  const pglite = runs.find((r) => r.name === 'pglite');
  const server = runs.find((r) => r.name === 'postgres');
  const onPglite = pglite ? specific(pglite) : new Set();
  const onServer = server ? specific(server) : new Set();
  for (const run of runs) if (run.untagged) run.notes.push(`${run.untagged} suite(s) without a store tag`);
  if (untagged.size) {
    lines.push('', 'SUITES WITHOUT A STORE TAG (docs/testing.md, "Which suites run twice"; each counted as 1 failed test):');
    for (const [file, wrong] of untagged) lines.push(`  ${file}: ${wrong}`);
  }
  if (pglite?.report && server?.report) {
    const missing = [...onPglite].filter((file) => !onServer.has(file)).sort();
    server.failed += missing.length;
    if (missing.length) server.notes.push(`${missing.length} store-specific suite(s) missing`);
    lines.push('', `store-specific suites: ${onPglite.size} in the PGlite run, ${onServer.size} in the server run`);
    if (missing.length) lines.push('STORE-SPECIFIC SUITES THE SERVER RUN LEFT OUT (each counted as 1 failed test):', ...missing.map((f) => `  ${f}`));
  }
  return lines;
}

/** Each requirement's presence for one run: { key: { present, detail } }. */
async function presenceFor(run, machine) {
  const out = { ...machine };
  for (const key of Object.keys(REQUIREMENTS).filter((k) => REQUIREMENTS[k].perRun)) out[key] = await REQUIREMENTS[key].probe(run);
  return out;
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length === 0 || args.length % 3 !== 0) {
    console.error('usage: summarize.cjs NAME EXIT REPORT [NAME EXIT REPORT ...]');
    process.exit(2);
  }
  const runs = [];
  for (let i = 0; i < args.length; i += 3) runs.push(readRun(args[i], args[i + 1], args[i + 2]));

  // Everything but what differs per run (the server) is a property of this machine: probed once.
  const machineKeys = Object.keys(REQUIREMENTS).filter((k) => !REQUIREMENTS[k].perRun);
  const machine = Object.fromEntries(await Promise.all(machineKeys.map(async (k) => [k, await REQUIREMENTS[k].probe()])));
  const fates = [];
  for (const run of runs) fates.push(judgeSkips(run, await presenceFor(run, machine)));
  const storeLines = judgeStoreTags(runs);

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

  const unexplained = runs.flatMap((r) => r.unexplained.map((t) => `  ${r.name}  ${t}`));
  if (unexplained.length) {
    out.push('', 'TESTS SKIPPED WITH NO REQUIREMENT (no entry in .ci/optional-suites.cjs; each counted as 1 failed test):', ...unexplained);
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

  out.push(...storeLines);

  out.push('', 'requirements here:');
  out.push(table(machineKeys.map((k) => [REQUIREMENTS[k].label, machine[k].present ? 'present' : 'absent', machine[k].detail])));
  out.push('', 'optional suites (FAILED counts each skipped test as failed):');
  out.push(table([['suite', ...runs.map((r) => r.name)], ...SUITES.map((s, i) => [s.name, ...fates.map((f) => f[i])])]));

  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const r of runs) for (const k of Object.keys(total)) total[k] += r[k];

  // The report goes to stderr with the rest of the diagnostics, first; the
  // two summary lines alone go to stdout, so .ci/run can print them last.
  process.stderr.write(out.join('\n') + '\n');
  process.stdout.write(`${total.skipped} skipped\n${total.passed} passed, ${total.failed} failed\n`);
  process.exitCode = total.failed > 0 ? 1 : 0;
}

main().catch((e) => {
  console.error(`summarize.cjs: ${e.stack ?? e}`);
  process.exit(2);
});
