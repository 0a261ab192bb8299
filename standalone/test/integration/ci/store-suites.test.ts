/**
 * The store tags that decide which suites CI runs on both stores
 * (.ci/store-suites.cjs; docs/testing.md, "Which suites run twice"): a suite
 * that looks store-bound says whether it is store-specific, every suite that
 * can run only in the server run is, and the server run's filter keeps
 * exactly those, so none of them can drop out of the server run unnoticed.
 */
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');
/* eslint-disable @typescript-eslint/no-require-imports -- the CI modules are CommonJS, read by plain node */
const stores = require(join(ROOT, '.ci', 'store-suites.cjs')) as {
  (paths: string[]): Promise<{ filtered: string[] }>;
  classify(file: string, source?: string): { tag?: string; reason?: string; signals: string[] };
  problem(c: { tag?: string; signals: string[] }): string | undefined;
  isStoreSpecific(file: string): boolean;
  testFiles(): string[];
};
const { SUITES } = require(join(ROOT, '.ci', 'optional-suites.cjs')) as {
  SUITES: Array<{ file: string; needs: string[] }>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const files = stores.testFiles();
const rel = (file: string) => relative(ROOT, file);
/** `name(`, spelled so that this file's own source does not look store-bound */
const call = (name: string) => `${name}(`;

describe('the store tags of the test suites', () => {
  it('tags every suite that looks store-bound, each tag with its reason', () => {
    const wrong = files
      .map((file) => [rel(file), stores.problem(stores.classify(file))])
      .filter(([, problem]) => problem);
    expect(wrong).toEqual([]);
    // the rule has teeth: a suite that migrates its own database without a tag is caught
    expect(stores.problem(stores.classify('x.test.ts', `await ${call('runMigrations')}s, 'x', []);`))).toMatch(
      /looks store-specific \(makes or migrates a database itself\)/,
    );
  });

  it('marks store-specific every suite that runs only in the server run', () => {
    const serverOnly = SUITES.filter((s) => s.needs.includes('server') || s.needs.includes('topology')).map(
      (s) => s.file,
    );
    expect(serverOnly.length).toBeGreaterThan(3);
    expect(serverOnly.filter((file) => !stores.isStoreSpecific(join(ROOT, file)))).toEqual([]);
  });

  it("keeps, as the server run's filter, the store-specific suites and nothing else", async () => {
    const { filtered } = await stores(files);
    const tagged = files.filter((file) => stores.classify(file).tag === 'store-specific');
    expect(filtered.map(rel).sort()).toEqual(tagged.map(rel).sort());
    expect(filtered.map(rel)).toContain('collections-service/test/integration/relay.test.ts');
    expect(filtered.map(rel)).not.toContain('gateway/test/unit/config.test.ts');
  });
});
