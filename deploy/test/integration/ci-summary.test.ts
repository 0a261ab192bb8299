/**
 * .ci/summarize.cjs, run as CI runs it, on small jest JSON reports made up
 * here: an optional suite that skipped while its requirement is present
 * fails the run; skipped while absent, it is reported and the run passes; a
 * skip no requirement accounts for fails the run. The requirements used are
 * the ones the environment decides (ELASTICSEARCH_URL, the run's name for the
 * server), so the outcome does not depend on what this machine has.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const SUMMARIZE = join(ROOT, '.ci', 'summarize.cjs');

type Status = 'passed' | 'failed' | 'pending';
interface FakeTest {
  file: string;
  titles: string[];
  status: Status;
}

/** A jest --json report holding `tests`, grouped by file as jest writes it. */
function report(tests: FakeTest[]): object {
  const files = [...new Set(tests.map((t) => t.file))];
  const count = (status: Status) => tests.filter((t) => t.status === status).length;
  return {
    numPassedTests: count('passed'),
    numFailedTests: count('failed'),
    numPendingTests: count('pending'),
    numTodoTests: 0,
    numTotalTestSuites: files.length,
    numRuntimeErrorTestSuites: 0,
    success: count('failed') === 0,
    wasInterrupted: false,
    snapshot: { failure: false },
    testResults: files.map((file) => ({
      name: isAbsolute(file) ? file : join(ROOT, file),
      status: tests.some((t) => t.file === file && t.status === 'failed') ? 'failed' : 'passed',
      message: '',
      assertionResults: tests
        .filter((t) => t.file === file)
        .map((t) => ({
          ancestorTitles: t.titles.slice(0, -1),
          title: t.titles[t.titles.length - 1],
          fullName: t.titles.join(' '),
          status: t.status,
        })),
    })),
  };
}

const ES_FILE = 'catalog-service/test/integration/engines/elasticsearch-live.test.ts';
const esTests = (status: Status): FakeTest[] =>
  ['finds an item by a word of its name', 'reports itself healthy'].map((title) => ({
    file: ES_FILE,
    titles: ['ElasticsearchEngine on a live cluster', 'ElasticsearchEngine conformance', title],
    status,
  }));
const RELAY_FILE = 'collections-service/test/integration/relay.test.ts';
const relayTests = (status: Status): FakeTest[] => [
  {
    file: RELAY_FILE,
    titles: ['OutboxRelay', 'publishes unpublished rows oldest first, keyed by item id, and marks them published'],
    status: 'passed',
  },
  {
    file: RELAY_FILE,
    titles: [
      'OutboxRelay',
      'lets one relay publish at a time: a second one stands by while the leader holds its batch',
    ],
    status,
  },
];
const plain: FakeTest = {
  file: 'gateway/test/unit/config.test.ts',
  titles: ['loadGatewayConfig', 'reads the port'],
  status: 'passed',
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ci-summary-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the summary over `runs` (name → report) with `env`; its exit code, stdout lines and report. */
function summarize(runs: Record<string, object>, env: Record<string, string> = {}) {
  const args = Object.entries(runs).flatMap(([name, body]) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(body));
    return [name, '0', file];
  });
  // No Redis or kubectl to find: only what each case sets decides.
  const result = spawnSync(process.execPath, [SUMMARIZE, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: dir, REDIS_URL: 'redis://127.0.0.1:1', ...env },
  });
  return { status: result.status, lines: result.stdout.trim().split('\n'), report: result.stderr };
}

describe('.ci/summarize.cjs', () => {
  it('fails the run when a suite skipped although its requirement is present', () => {
    const out = summarize(
      { pglite: report([plain, ...esTests('pending')]) },
      { ELASTICSEARCH_URL: 'http://127.0.0.1:9200' },
    );
    expect(out.status).toBe(1);
    expect(out.lines).toEqual(['0 skipped', '1 passed, 2 failed']);
    expect(out.report).toMatch(/live Elasticsearch\s+FAILED: requirement present but skipped \(2 test\(s\)\)/);
  });

  it('passes, reporting the skip, when the requirement is absent', () => {
    const out = summarize({ pglite: report([plain, ...esTests('pending')]) });
    expect(out.status).toBe(0);
    expect(out.lines).toEqual(['2 skipped', '1 passed, 0 failed']);
    expect(out.report).toMatch(/live Elasticsearch\s+skipped: requirement absent \(ELASTICSEARCH_URL unset\)/);
  });

  it('reports a suite whose requirement is present as ran', () => {
    const out = summarize(
      { pglite: report([plain, ...esTests('passed')]) },
      { ELASTICSEARCH_URL: 'http://127.0.0.1:9200' },
    );
    expect(out.status).toBe(0);
    expect(out.lines).toEqual(['0 skipped', '3 passed, 0 failed']);
    expect(out.report).toMatch(/live Elasticsearch\s+ran \(2 passed\)/);
  });

  it('judges the server-only cases per run: absent on PGlite, present in the DATABASE_URL run', () => {
    const out = summarize({ pglite: report(relayTests('pending')), postgres: report(relayTests('pending')) });
    expect(out.status).toBe(1);
    expect(out.lines).toEqual(['1 skipped', '2 passed, 1 failed']);
    expect(out.report).toMatch(
      /server: relay leader and late commit\s+skipped: requirement absent \(PGlite run\)\s+FAILED: requirement present but skipped \(1 test\(s\)\)/,
    );
    const passing = summarize({ pglite: report(relayTests('pending')), postgres: report(relayTests('passed')) });
    expect(passing.status).toBe(0);
    expect(passing.lines).toEqual(['1 skipped', '3 passed, 0 failed']);
  });

  it('fails the server run when it left out a store-specific suite of the PGlite run', () => {
    const out = summarize({ pglite: report([plain, ...relayTests('pending')]), postgres: report([plain]) });
    expect(out.status).toBe(1);
    expect(out.lines).toEqual(['1 skipped', '3 passed, 1 failed']);
    expect(out.report).toMatch(
      /STORE-SPECIFIC SUITES THE SERVER RUN LEFT OUT[^\n]*\n\s+collections-service\/test\/integration\/relay\.test\.ts/,
    );
    const whole = summarize({
      pglite: report([plain, ...relayTests('pending')]),
      postgres: report(relayTests('passed')),
    });
    expect(whole.status).toBe(0);
    expect(whole.report).toContain('store-specific suites: 1 in the PGlite run, 1 in the server run');
  });

  it('fails the run on a suite that looks store-specific without a store tag', () => {
    const file = join(dir, 'untagged.test.ts');
    // spelled so that this file's own source does not look store-bound
    const call = (name: string) => `${name}(`;
    writeFileSync(file, `it('x', async () => { await ${call('createTestDatabase')}); });\n`);
    const out = summarize({ pglite: report([plain, { file, titles: ['x'], status: 'passed' }]) });
    expect(out.status).toBe(1);
    expect(out.lines).toEqual(['0 skipped', '2 passed, 1 failed']);
    expect(out.report).toContain(`${file}: looks store-specific (makes or migrates a database itself)`);
  });

  it('fails the run on a skip that no requirement accounts for', () => {
    const out = summarize({
      pglite: report([plain, { ...plain, titles: ['loadGatewayConfig', 'reads the host'], status: 'pending' }]),
    });
    expect(out.status).toBe(1);
    expect(out.lines).toEqual(['0 skipped', '1 passed, 1 failed']);
    expect(out.report).toContain('TESTS SKIPPED WITH NO REQUIREMENT');
    expect(out.report).toContain('gateway/test/unit/config.test.ts: loadGatewayConfig reads the host');
  });

  it('counts a run that left no report as a failure', () => {
    const out = summarize({ pglite: report([plain]) });
    const missing = spawnSync(process.execPath, [SUMMARIZE, 'pglite', '1', join(dir, 'absent.json')], {
      encoding: 'utf8',
      env: { PATH: dir, REDIS_URL: 'redis://127.0.0.1:1' },
    });
    expect(out.lines).toEqual(['0 skipped', '1 passed, 0 failed']);
    expect(missing.status).toBe(1);
    expect(missing.stdout.trim().split('\n')).toEqual(['0 skipped', '0 passed, 1 failed']);
  });
});
