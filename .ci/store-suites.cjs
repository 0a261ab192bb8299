/**
 * Which suites run on both stores (docs/testing.md, "Which suites run twice").
 *
 * `.ci/run` runs every suite once on PGlite, then only the store-specific
 * ones again on the Postgres server (with Elasticsearch 8 instead of 9): a
 * repository, migrations, the outbox or event log read back, a query plan,
 * or anything whose behaviour differs by store (locks and races, roles, the
 * server's own features). A suite says so in its header:
 *
 *    * @store-specific why it must run on both
 *
 * A suite that looks store-bound (the signals below) but is not says why:
 *
 *    * @not-store-specific why once is enough
 *
 * The signals make the rule checked: a suite that imports a Sequelize store
 * module, makes or migrates a database itself, branches on the store or reads
 * a query plan must carry one of the two tags (standalone/test/integration/ci/
 * store-suites.test.ts, and .ci/summarize.cjs over the runs it judges), and
 * the summary fails a server run that left out a store-specific suite the
 * PGlite run had. Plain `npm test` runs everything, on whichever store
 * DATABASE_URL names: only `.ci/run` passes this module to jest as --filter.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const PACKAGES = ['common', 'gateway', 'catalog-service', 'collections-service', 'standalone', 'bench', 'deploy', 'client', 'console'];

// A tag line of a comment: " * @store-specific reason", "// @store-specific reason", or a one-line docblock.
const TAG = /^[ \t]*(?:\/\*\*|\*|\/\/)[ \t]*@(store-specific|not-store-specific)\b[ \t]*(.*?)[ \t]*(?:\*\/)?[ \t]*$/gm;

/** What makes a suite look store-bound; each names why. */
const SIGNALS = [
  // a Sequelize store module (the in-memory and Redis stores are not the database)
  { why: 'imports a store module', re: /from '[^']*\/(store\/(?!memory|redis)|events\/postgres-event-log|engines\/postgres\/)[^']*'/ },
  { why: 'makes or migrates a database itself', re: /\b(createTestDatabase|createScratchDatabase|startEmbeddedPostgres|runMigrations)\(/ },
  { why: 'branches on the store', re: /process\.env\.DATABASE_URL|kind === '(pglite|postgres)'/ },
  { why: 'reads a query plan', re: /\bEXPLAIN\b/ },
];

/** { tag, reason, problem } of one test file's source: tag undefined when it has none. */
function storeTag(source) {
  const tags = [...source.matchAll(TAG)];
  if (tags.length === 0) return { tag: undefined };
  const [, tag, reason] = tags[0];
  if (tags.length > 1) return { tag, reason, problem: 'more than one @store-specific / @not-store-specific tag' };
  if (!reason.trim()) return { tag, reason, problem: `@${tag} without a reason` };
  return { tag, reason: reason.trim() };
}

function signals(source) {
  return SIGNALS.filter((s) => s.re.test(source)).map((s) => s.why);
}

/** The tag and signals of a test file (absolute path), or of its given source. */
function classify(file, source = fs.readFileSync(file, 'utf8')) {
  return { ...storeTag(source), signals: signals(source) };
}

/** Why a file's classification is wrong, or undefined. */
function problem(c) {
  if (c.problem) return c.problem;
  if (c.tag === undefined && c.signals.length > 0) return `looks store-specific (${c.signals.join(', ')}) but has no @store-specific or @not-store-specific tag`;
  return undefined;
}

const isStoreSpecific = (file) => classify(file).tag === 'store-specific';

/** Every test file of the packages, absolute. */
function testFiles(dir = undefined) {
  if (dir === undefined) return PACKAGES.flatMap((p) => testFiles(path.join(ROOT, p, 'test')));
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? testFiles(file) : entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/** jest's --filter (the server run of .ci/run): only the store-specific suites. */
async function filter(testPaths) {
  return { filtered: testPaths.filter(isStoreSpecific) };
}

module.exports = filter;
Object.assign(module.exports, { classify, problem, isStoreSpecific, testFiles, SIGNALS });
