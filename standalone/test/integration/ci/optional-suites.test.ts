/**
 * `.ci/optional-suites.cjs` names every test file that may skip and what it
 * needs; the CI summary fails a run on a skip it cannot account for. This
 * keeps the table in step with the code before a machine without Redis or
 * Chromium finds the gap: every skip site is listed, every listed file
 * exists and still has one.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CI table is CommonJS, read by plain node
const { SUITES } = require(join(ROOT, '.ci', 'optional-suites.cjs')) as {
  SUITES: Array<{ name: string; file: string }>;
};

const PACKAGES = [
  'common',
  'gateway',
  'catalog-service',
  'collections-service',
  'standalone',
  'bench',
  'deploy',
  'client',
  'console',
];
const SKIP_SITE = /\b(describe|it|test)\.skip\b/;

function testFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? testFiles(path) : entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const skipping = PACKAGES.flatMap((p) => testFiles(join(ROOT, p, 'test')))
  .filter((file) => SKIP_SITE.test(readFileSync(file, 'utf8')))
  .map((file) => relative(ROOT, file))
  .sort();

describe('.ci/optional-suites.cjs', () => {
  it('lists every test file that can skip', () => {
    const listed = new Set(SUITES.map((s) => s.file));
    expect(skipping.length).toBeGreaterThan(10);
    expect(skipping.filter((file) => !listed.has(file))).toEqual([]);
  });

  it('lists only files that exist and still have a skip site', () => {
    expect(SUITES.map((s) => s.file).filter((file) => !skipping.includes(file))).toEqual([]);
  });
});
