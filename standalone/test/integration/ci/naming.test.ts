/**
 * The naming rules of docs/architecture.md ("Layout of a service"), held:
 * a file's name says its role, so a reader finds the table access, the
 * request schemas and the routes without opening files. Each rule is
 * checked over the tracked sources, and each says which file breaks it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');
const SERVICES = ['gateway', 'collections-service', 'catalog-service'];

function trackedSources(): Array<{ path: string; text: string }> {
  const paths = execFileSync('git', ['ls-files', '-z', '--', '*/src/*.ts'], { cwd: ROOT, encoding: 'utf8' }).split(
    '\0',
  );
  return paths.filter((path) => path !== '').map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
}

const inService = (path: string) => SERVICES.some((service) => path.startsWith(`${service}/src/`));
const importsFrom = (text: string, module: string) => new RegExp(`from '${module}'`).test(text);

/** Each rule: what it asks, and the files that break it. */
export function namingBreaches(files: Array<{ path: string; text: string }>): string[] {
  const breaches: string[] = [];
  const breach = (path: string, rule: string) => breaches.push(`${path}: ${rule}`);
  for (const { path, text } of files) {
    const name = basename(path);
    // `.store.ts` is state in memory or Redis; a table read through Sequelize is a `.repository.ts`
    if (
      /[.-]store\.ts$/.test(name) &&
      (importsFrom(text, 'sequelize') || /\bsequelize\.(query|transaction)\(/.test(text))
    )
      breach(path, 'Sequelize access in a store file: name it *.repository.ts (or repositories.ts for the set)');
    if (!inService(path)) continue;
    if (path.includes('/src/http/') && importsFrom(text, 'joi') && !name.endsWith('.schemas.ts'))
      breach(path, 'a joi request schema outside a *.schemas.ts file');
    if (/schema\.ts$/.test(name) && !path.includes('/openapi/')) breach(path, 'request schemas are *.schemas.ts');
    if (/\bRouter\(\)/.test(text) && !name.endsWith('.routes.ts'))
      breach(path, 'an express router outside a *.routes.ts file');
    if (/-routes\.ts$/.test(name)) breach(path, 'routes are *.routes.ts');
    const engine = /^catalog-service\/src\/engines\/([^/]+)\/[^/]+\.ts$/.exec(path);
    if (engine && /class \w+ implements SearchEngine\b/.test(text) && name !== `${engine[1]}.engine.ts`)
      breach(path, `the ${engine[1]} engine is ${engine[1]}/${engine[1]}.engine.ts, like every engine`);
  }
  return breaches;
}

/** The files directly in a folder (not in its sub-folders). */
function looseFiles(files: Array<{ path: string }>, folder: string): string[] {
  return files.map((f) => f.path).filter((path) => dirname(path) === folder);
}

/** What a package's test/ holds at its top: the three folders of docs/testing.md, and the console's compiler settings. */
const TEST_TOP = new Set(['unit', 'integration', 'support', 'tsconfig.json']);

/** `package/test/<top>` entries outside the three folders, over every tracked file under a package's test/. */
export function testLayoutBreaches(paths: string[]): string[] {
  const tops = new Set(
    paths.map((path) => /^([^/]+\/test\/[^/]+)/.exec(path)?.[1]).filter((top): top is string => top !== undefined),
  );
  return [...tops].filter((top) => !TEST_TOP.has(top.split('/')[2] ?? '')).sort();
}

describe('the naming rules of docs/architecture.md', () => {
  const files = trackedSources();

  it('hold over every source file', () => {
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['gateway/src/service.ts', 'catalog-service/src/engines/memory/memory.engine.ts']),
    );
    expect(namingBreaches(files)).toEqual([]);
  });

  it('give both search engines one pattern: engines/<name>/<name>.engine.ts', () => {
    const engines = files
      .map((f) => f.path)
      .filter((path) => /^catalog-service\/src\/engines\/[^/]+\/[^/]+\.engine\.ts$/.test(path));
    expect(engines.sort()).toEqual([
      'catalog-service/src/engines/elasticsearch/elasticsearch.engine.ts',
      'catalog-service/src/engines/memory/memory.engine.ts',
    ]);
  });

  it("keep the gateway's domain/ and http/ in folders by job, with only what every job shares loose", () => {
    expect(looseFiles(files, 'gateway/src/domain').length).toBeLessThanOrEqual(4);
    expect(looseFiles(files, 'gateway/src/http').length).toBeLessThanOrEqual(6);
  });

  it("put every package's tests in test/unit, test/integration or test/support (docs/testing.md)", () => {
    const paths = execFileSync('git', ['ls-files', '-z', '--', '*/test/*'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter((p) => p !== '');
    expect(paths).toEqual(expect.arrayContaining(['gateway/test/integration/harness.ts']));
    expect(testLayoutBreaches(paths)).toEqual([]);
    expect(
      testLayoutBreaches([
        'common/test/i18n.test.ts',
        'standalone/test/e2e/search.test.ts',
        'console/test/tsconfig.json',
      ]),
    ).toEqual(['common/test/i18n.test.ts', 'standalone/test/e2e']);
  });

  it('tell each breach apart from what merely looks like one', () => {
    const breaches = (path: string, text: string) =>
      namingBreaches([{ path, text }]).map((b) => b.split(': ').slice(1).join(': '));
    expect(breaches('gateway/src/store/gateway-store.ts', "import type { Sequelize } from 'sequelize';")).toEqual([
      'Sequelize access in a store file: name it *.repository.ts (or repositories.ts for the set)',
    ]);
    expect(breaches('gateway/src/store/memory-throttle.store.ts', 'export class MemoryThrottleStore {}')).toEqual([]);
    expect(breaches('gateway/src/http/auth.routes.ts', "import Joi from 'joi';\nconst r = Router();")).toEqual([
      'a joi request schema outside a *.schemas.ts file',
    ]);
    expect(breaches('gateway/src/http/sign-in/auth.schemas.ts', "import Joi from 'joi';")).toEqual([]);
    expect(breaches('catalog-service/src/http/skills.schema.ts', "import Joi from 'joi';")).toEqual([
      'a joi request schema outside a *.schemas.ts file',
      'request schemas are *.schemas.ts',
    ]);
    expect(breaches('gateway/src/http/governance-routes.ts', 'const router = Router();')).toEqual([
      'an express router outside a *.routes.ts file',
      'routes are *.routes.ts',
    ]);
    expect(
      breaches(
        'catalog-service/src/engines/memory/memory-search-engine.ts',
        'export class MemorySearchEngine implements SearchEngine {',
      ),
    ).toEqual(['the memory engine is memory/memory.engine.ts, like every engine']);
    // config files validate the environment with joi: not a request schema
    expect(breaches('gateway/src/config.ts', "import Joi from 'joi';")).toEqual([]);
  });
});
