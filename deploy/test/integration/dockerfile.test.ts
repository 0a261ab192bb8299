/**
 * deploy/Dockerfile, its entrypoint and .dockerignore, checked without a
 * Docker engine: what the image is built from, what it runs and as whom.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_EMBEDDING_MODEL, loadEmbeddingConfig } from '@skills/catalog-service';

const ROOT = join(__dirname, '..', '..', '..');
const dockerfile = readFileSync(join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
const entrypoint = readFileSync(join(ROOT, 'deploy', 'docker', 'entrypoint.sh'), 'utf8');
const dockerignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim());

/** Instructions with line continuations joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const stages = instructions.reduce<string[][]>(
  (acc, line) => (line.startsWith('FROM ') ? [...acc, [line]] : (acc[acc.length - 1]?.push(line), acc)),
  [],
);
const runtime = stages[stages.length - 1];

describe('deploy/Dockerfile', () => {
  it('builds in several stages from one pinned Node 20 slim base', () => {
    const base = /^ARG NODE_IMAGE=(.+)$/m.exec(dockerfile)?.[1];
    expect(base).toMatch(/^node:20\.\d+\.\d+-[a-z]+-slim$/);
    expect(stages.length).toBeGreaterThanOrEqual(3);
    for (const stage of stages) expect(stage[0]).toMatch(/^FROM \$\{NODE_IMAGE\} AS [a-z]+$/);
  });

  it('ships production dependencies only, and compiled code without sources or tests', () => {
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    const copied = runtime.filter((l) => l.startsWith('COPY --from=build')).map((l) => l.split(/\s+/)[2]);
    expect(copied.filter((path) => /\/(src|test)(\/|$)/.test(path))).toEqual([]);
    expect(runtime).toContain('COPY --from=deps /app/node_modules ./node_modules');
  });

  it('needs no install script of a production dependency, since npm ci runs with --ignore-scripts', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; optional?: boolean; hasInstallScript?: boolean }>;
    };
    // @scarf/scarf (pulled in by swagger-ui-dist) only reports installs; skipping it is the point.
    // argon2's and usearch's script (node-gyp-build) only compiles when no prebuilt binary fits; both
    // packages ship them (prebuilds/linux-x64, linux-arm64, …), which node-gyp-build loads at run time.
    // onnxruntime-node's script only downloads GPU providers from a feed of its own (the project's .npmrc
    // skips it); the CPU binaries it runs on are in the package (bin/napi-v6/<os>/<arch>/).
    const allowed = new Set([
      'node_modules/@scarf/scarf',
      'node_modules/argon2',
      'node_modules/onnxruntime-node',
      'node_modules/usearch',
    ]);
    const scripted = Object.entries(lock.packages).filter(
      ([path, p]) =>
        p.hasInstallScript && !p.dev && !p.optional && path.startsWith('node_modules/') && !allowed.has(path),
    );
    expect(scripted.map(([path]) => path)).toEqual([]);
    expect(dockerfile).toMatch(/npm ci --omit=dev --omit=optional --ignore-scripts/);
  });

  it('carries the search model, fetched and checked by its pinned digest at build, and never fetches it when running', () => {
    const build = stages.find((stage) => stage[0]?.endsWith(' AS build')) ?? [];
    // the same command as `npm run model:fetch`, after the build that compiles it
    expect(build.indexOf('RUN node catalog-service/dist/model-fetch-main.js')).toBeGreaterThan(
      build.findIndex((l) => l.startsWith('RUN npx tsc -b')),
    );
    expect(runtime).toContain('COPY --from=build /app/.data/models .data/models');
    expect(runtime.find((l) => l.startsWith('ENV '))).toMatch(/\bEMBEDDING_FETCH=false\b/);
    // catalog-service's default EMBEDDING_MODEL_DIR is <root>/.data/models: /app/.data/models in the image
    expect(loadEmbeddingConfig({})).toMatchObject({
      dir: join(ROOT, '.data', 'models'),
      model: DEFAULT_EMBEDDING_MODEL,
    });
  });

  it('gives npm the package.json of every workspace, or npm ci rejects the lockfile', () => {
    const workspaces = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] })
      .workspaces;
    for (const workspace of workspaces) expect(dockerfile).toContain(`COPY ${workspace}/package.json ${workspace}/`);
  });

  it('copies from the build context only files that exist and that .dockerignore lets through', () => {
    const sources = instructions
      .filter((l) => l.startsWith('COPY ') && !l.startsWith('COPY --from'))
      .flatMap((l) => l.split(/\s+/).slice(1, -1));
    expect(sources.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
    expect(sources.filter((path) => dockerignore.includes(path.replace(/\/$/, '')))).toEqual([]);
  });

  it('runs as a numeric non-root user, with a health check and the entrypoint choosing the process', () => {
    const user = runtime.find((l) => l.startsWith('USER '));
    expect(user).toMatch(/^USER [1-9]\d*:[1-9]\d*$/);
    expect(runtime.some((l) => l.startsWith('HEALTHCHECK ') && l.includes('healthcheck.js'))).toBe(true);
    expect(runtime).toContain('ENTRYPOINT ["/bin/sh", "/usr/local/lib/skills/entrypoint.sh"]');
  });
});

describe('deploy/docker/entrypoint.sh', () => {
  it.each(['entrypoint.sh', 'kafka/certificates.sh', 'kafka/setup.sh', 'postgres/roles.sh'])(
    '%s is valid POSIX shell',
    (script) => {
      expect(() => execFileSync('sh', ['-n', join(ROOT, 'deploy', 'docker', script)])).not.toThrow();
    },
  );

  it.each([
    ['gateway', 'gateway/src/main.ts', 'node gateway/dist/main.js'],
    ['catalog-service', 'catalog-service/src/main.ts', 'node catalog-service/dist/main.js'],
    ['collections-service', 'collections-service/src/main.ts', 'node collections-service/dist/main.js'],
    ['migrate', 'standalone/src/migrate.ts', 'node standalone/dist/migrate.js'],
    ['admin', 'standalone/src/cli/admin.ts', 'node standalone/dist/cli/admin.js'],
    [
      'principal-keys',
      'standalone/src/cli/principal-keys-command.ts',
      'node standalone/dist/cli/principal-keys-command.js',
    ],
  ])('runs %s from a program that exists (%s)', (command, source, exec) => {
    expect(existsSync(join(ROOT, source))).toBe(true);
    const branch = new RegExp(`^  ${command}\\)\\n(?:.*\\n)*?.*exec ${exec.replace(/\./g, '\\.')}`, 'm');
    expect(entrypoint).toMatch(branch);
  });

  it('loads the bundled sample catalog through the admin CLI', () => {
    expect(existsSync(join(ROOT, 'standalone', 'data', 'sample-catalog.ndjson'))).toBe(true);
    expect(entrypoint).toContain(
      'node standalone/dist/cli/admin.js skills import standalone/data/sample-catalog.ndjson',
    );
    expect(dockerfile).toContain('COPY --from=build /app/standalone/data standalone/data');
  });
});

describe('.dockerignore', () => {
  it('keeps host dependencies, build output, local data, secrets and VCS out of the build context', () => {
    for (const entry of ['**/node_modules', '**/dist', '.data', '.env', '.env.*', '.git'])
      expect(dockerignore).toContain(entry);
  });
});
