/**
 * Loads docker-compose.yml the way `docker compose` does before validating
 * it: YAML merge keys resolved, then `${VAR}` interpolation from an
 * environment (`${VAR:-default}`, `${VAR-default}`, `${VAR:?message}`,
 * `${VAR?message}`, `$$` for a literal `$`).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export type Env = Record<string, string | undefined>;

export class InterpolationError extends Error {}

const PATTERN = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

export function interpolate(text: string, env: Env): string {
  return text.replace(
    PATTERN,
    (match, braced: string | undefined, op: string | undefined, arg: string | undefined, bare: string | undefined) => {
      if (match === '$$') return '$';
      const name = (braced ?? bare) as string;
      const value = env[name];
      const unset = value === undefined;
      const empty = unset || value === '';
      switch (op) {
        case ':-':
          return empty ? (arg ?? '') : (value as string);
        case '-':
          return unset ? (arg ?? '') : (value as string);
        case ':?':
          if (empty) throw new InterpolationError(`required variable ${name} is missing a value: ${arg ?? ''}`);
          return value as string;
        case '?':
          if (unset) throw new InterpolationError(`required variable ${name} is missing a value: ${arg ?? ''}`);
          return value as string;
        default:
          return value ?? '';
      }
    },
  );
}

function interpolateAll(value: unknown, env: Env): unknown {
  if (typeof value === 'string') return interpolate(value, env);
  if (Array.isArray(value)) return value.map((v) => interpolateAll(v, env));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateAll(v, env)]));
  }
  return value;
}

export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string | number | boolean | null>;
  ports?: string[];
  expose?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  restart?: string;
  read_only?: boolean;
  cap_drop?: string[];
  security_opt?: string[];
  volumes?: string[];
  network_mode?: string;
  user?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  [key: string]: unknown;
}

/** The raw document: merge keys resolved, variables left as written. */
export function readComposeRaw(path: string): ComposeFile {
  return parse(readFileSync(path, 'utf8'), { merge: true }) as ComposeFile;
}

/** The document as compose would run it with `env` (the shell plus .env). */
export function readCompose(path: string, env: Env): ComposeFile {
  return interpolateAll(readComposeRaw(path), env) as ComposeFile;
}
