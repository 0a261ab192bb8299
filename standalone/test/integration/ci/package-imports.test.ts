/**
 * Every package declares what its shipped code imports: a workspace
 * package found only because npm hoisted it beside another works here and
 * breaks the day a package is installed or bundled on its own. Source files
 * (`src/`) must find each import in the package's `dependencies`, `peerDependencies`
 * or, for type-only imports and the helpers other packages' tests import
 * (`src/testing/`, never loaded by a running service), `devDependencies`.
 */
import { builtinModules } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');
const BUILTINS = new Set(builtinModules);
/** `import … from 'x'`, `export … from 'x'`, `import('x')`, `require('x')`; group 1 is `import type`/`export type` */
const IMPORT =
  /(?:^|\n)\s*(import type|export type|import|export)\b[^'";]*?from\s+'([^']+)'|\b(?:import|require)\(\s*'([^']+)'\s*\)/g;

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`; undefined for relative paths and Node's own modules. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0]))
    return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** What `src/` of a package imports that its manifest does not declare, as "file: package". */
export function undeclaredImports(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
  const shipped = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    manifest.name,
  ]);
  const typesToo = new Set([...shipped, ...Object.keys(manifest.devDependencies ?? {})]);
  const missing: string[] = [];
  for (const file of sourceFiles(join(dir, 'src'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const name = packageOf(match[2] ?? match[3]);
      const devOnly =
        match[1] === 'import type' || match[1] === 'export type' || file.includes(`${sep}src${sep}testing${sep}`);
      if (name && !(devOnly ? typesToo : shipped).has(name)) {
        missing.push(`${file.slice(ROOT.length + 1)}: ${name}`);
      }
    }
  }
  return [...new Set(missing)].sort();
}

const PACKAGES = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;

it.each(PACKAGES)('%s declares every package its src/ imports', (pkg) => {
  expect(undeclaredImports(join(ROOT, pkg))).toEqual([]);
});

it('reads a scoped subpath import as its package, and leaves relative and Node imports out', () => {
  expect(packageOf('@skills/common/workspace-roles')).toBe('@skills/common');
  expect(packageOf('joi')).toBe('joi');
  expect(packageOf('undici/types')).toBe('undici');
  expect([packageOf('./api'), packageOf('node:http'), packageOf('fs/promises')]).toEqual([
    undefined,
    undefined,
    undefined,
  ]);
});
