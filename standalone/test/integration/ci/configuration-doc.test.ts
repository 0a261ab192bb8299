/**
 * Every variable a process reads is described for operators: named in
 * docs/configuration.md or docs/deploy.md, whole or by a documented prefix
 * (`ADMISSION_*`), so a new setting cannot ship without its line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Joi from 'joi';
import { CATALOG_ENV } from '@skills/catalog-service';
import { COLLECTIONS_ENV } from '@skills/collections-service';
import { GATEWAY_ENV } from '@skills/gateway';
import { LAUNCHER_ENV } from '../../../src/launcher-config';

const DOCS = ['configuration.md', 'deploy.md']
  .map((file) => readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', file), 'utf8'))
  .join('\n');
const documented = new Set([...DOCS.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] as string));
const prefixes = [...DOCS.matchAll(/`([A-Z][A-Z0-9_]*_)\*`/g)].map((m) => m[1] as string);

function variables(schema: Joi.ObjectSchema): string[] {
  return Object.keys((schema.describe() as { keys?: Record<string, unknown> }).keys ?? {});
}

describe.each([
  ['catalog-service', CATALOG_ENV],
  ['collections-service', COLLECTIONS_ENV],
  ['gateway', GATEWAY_ENV],
  ['npm start', LAUNCHER_ENV],
] as const)('the variables of %s', (_name, schema) => {
  it('are each described in docs/configuration.md or docs/deploy.md', () => {
    const names = variables(schema);
    expect(names.length).toBeGreaterThanOrEqual(5);
    expect(
      names.filter((name) => !documented.has(name) && !prefixes.some((prefix) => name.startsWith(prefix))),
    ).toEqual([]);
  });
});
