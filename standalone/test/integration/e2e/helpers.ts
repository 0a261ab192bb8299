/**
 * End-to-end helpers: start the BUILT standalone stack as a real child
 * process (`node standalone/dist/main.js`) on a free port with a temp
 * DATA_DIR — and, when DATABASE_URL is set, on a fresh database of that
 * server — wait for its READY line, and talk to the gateway with fetch.
 * Every answer the suites receive through `Client.call` or `Stack.api` is
 * checked against the OpenAPI document (status, required headers, body).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase, eventually, freePort, type TestDatabase } from '@skills/common/testing';
import { SkillsClient } from '@skills/client';
import { createOpenApiValidator } from '@skills/gateway/testing';
import { READY_PREFIX, type ReadyInfo } from '../../../src/banner';

const ROOT = resolve(__dirname, '..', '..', '..', '..');
const MAIN = join(ROOT, 'standalone', 'dist', 'main.js');
const START_TIMEOUT_MS = 120_000;

/** `any` on purpose: tests walk response bodies of every shape, and an assertion names what was wrong. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiResponse<T = Json> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  /** bearer token: an API key or the admin token; omit for no Authorization header */
  token?: string;
  /** JSON body, sent as application/json */
  json?: unknown;
  /** raw body, sent as is (set content-type in headers) */
  raw?: string;
  headers?: Record<string, string>;
  /**
   * A request deliberately outside the contract (a hostile or malformed
   * call whose answer the document does not promise): not checked.
   */
  unchecked?: boolean;
}

const contract = createOpenApiValidator();

/** Paths the document describes: anything else (an unknown route, /docs assets) has no contract to check. */
function documented(path: string): boolean {
  try {
    contract.findOperation('GET', path);
    return true;
  } catch (err) {
    // "GET … is not in the document" still means the path is documented (a 405 is checked then).
    return !/no path of the document/.test(String(err));
  }
}

/**
 * Checks one answer against the OpenAPI document, throwing OpenApiMismatchError.
 * HEAD has no operation of its own and unknown paths have no contract.
 */
export function checkContract(method: string, path: string, status: number, headers: Headers, body: unknown): void {
  const upper = method.toUpperCase();
  if (upper === 'HEAD' || upper === 'OPTIONS' || !documented(path)) return;
  contract.assertMatches(upper, path, status, headers, body);
}

/** A fetch that checks every answer against the document before the caller sees it (for SkillsClient). */
export function checkedFetch(baseUrl: string): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(String(input instanceof Request ? input.url : input));
    const path = `${url.pathname}${url.search}`.slice(new URL(baseUrl).pathname.replace(/\/$/, '').length);
    const text = await response.clone().text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the document check names the content type
    }
    checkContract(init?.method ?? 'GET', path, response.status, response.headers, text === '' ? undefined : body);
    return response;
  };
}

export class Client {
  constructor(readonly baseUrl: string) {}

  async call<T = Json>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.raw;
    if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text so a failing assertion shows it
    }
    if (!options.unchecked)
      checkContract(method, path, response.status, response.headers, text === '' ? undefined : parsed);
    return { status: response.status, headers: response.headers, body: parsed as T };
  }
}

export interface Stack {
  info: ReadyInfo;
  client: Client;
  /** the typed client of @skills/client for `apiKey` (the demo key by default), answers checked against the document */
  api(apiKey?: string, language?: 'en' | 'fr'): SkillsClient;
  /** the admin token as the launcher printed it */
  admin: string;
  /** the stack's process id */
  pid: number;
  dataDir: string;
  /** the server database when DATABASE_URL is set (PGlite lives in dataDir otherwise) */
  database?: TestDatabase;
  /** everything the process wrote to stdout so far */
  stdout(): string;
  /** sends `signal` and resolves to the exit code */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** stops the process if it still runs and removes the temp dir and database */
  dispose(): Promise<void>;
}

function waitForExit(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((ok) => child.once('exit', (code) => ok(code)));
}

export interface StartOptions {
  /** reuse a DATA_DIR (restart tests); a copy of the run's seeded one otherwise (seededDataDir) */
  dataDir?: string;
  /** a first start on an empty DATA_DIR, for a suite about the first start itself */
  fresh?: boolean;
  /** reuse a database (restart tests on a server) */
  database?: TestDatabase;
  env?: Record<string, string>;
}

/**
 * Starts the built stack and resolves once it printed READY. A port found
 * free can be taken before the stack listens on it (by any outgoing
 * connection's ephemeral port, many with the live servers' clients): such a
 * start is tried again on other ports.
 */
export async function startStack(options: StartOptions = {}): Promise<Stack> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startStackOnce(options);
    } catch (err) {
      if (attempt >= 3 || !String((err as Error).message).includes('EADDRINUSE')) throw err;
    }
  }
}

/**
 * A first start (PGlite's files made, three schemas migrated, the sample
 * catalog imported with its verdicts, the demo data made) is most of a
 * suite's start-up. It is done once per jest run, in the run's folder
 * (jest.global-setup.cjs), and every later embedded start begins on a copy
 * of its DATA_DIR, as a restart would; resolves undefined (a first start,
 * then) on a server database, outside such a run, or when that start failed.
 * Workers share it: the first to take the lock makes it, the others wait.
 */
async function seededDataDir(): Promise<string | undefined> {
  const run = process.env.SKILLS_TEST_RUN_DIR;
  if (!run || process.env.DATABASE_URL) return undefined;
  const home = join(run, 'e2e-seeded');
  await mkdir(home, { recursive: true });
  const data = join(home, 'data');
  const made = join(home, 'made');
  const failed = join(home, 'failed');
  try {
    await mkdir(join(home, 'lock'));
  } catch {
    await eventually(
      async () => existsSync(made) || existsSync(failed),
      'the seeded DATA_DIR',
      3 * START_TIMEOUT_MS,
      200,
    );
    return existsSync(made) ? data : undefined;
  }
  try {
    const first = await startStackOnce({ dataDir: data, fresh: true });
    const code = await first.stop('SIGTERM');
    if (code !== 0 || !first.info.seeded)
      throw new Error(`the seeding start exited ${code}, seeded: ${first.info.seeded}`);
    await writeFile(made, '');
    return data;
  } catch (err) {
    await writeFile(failed, String(err));
    throw err;
  }
}

async function startStackOnce(options: StartOptions): Promise<Stack> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (npm run build)`);
  const seeded = options.dataDir || options.fresh ? undefined : await seededDataDir();
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'skills-e2e-')));
  if (seeded) await cp(seeded, dataDir, { recursive: true });
  const database = options.database ?? (process.env.DATABASE_URL ? await createTestDatabase() : undefined);
  const port = await freePort();
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    // Jest's NODE_OPTIONS and the suite's DATABASE_URL are not the child's business.
    if (v !== undefined && k !== 'NODE_OPTIONS' && k !== 'DATABASE_URL' && k !== 'ADMIN_TOKEN') env[k] = v;
  }
  // Suites make hundreds of calls a minute with one key: limits are raised unless a suite sets its own.
  // So is the budget of failed authentications per address: every suite calls from 127.0.0.1.
  const limits = {
    RATE_LIMIT_PRO_PER_MINUTE: '100000',
    RATE_LIMIT_TEAM_PER_MINUTE: '100000',
    AUTH_FAILURES_PER_MINUTE: '100000',
    SESSION_REQUESTS_PER_MINUTE: '100000',
  };
  Object.assign(env, { PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, limits, options.env);
  if (database) env.DATABASE_URL = database.url;

  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));

  const dispose = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await waitForExit(child);
    }
    if (!options.database) await database?.drop().catch(() => undefined);
    if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
  };

  const info = await new Promise<ReadyInfo>((ok, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`no READY line within ${START_TIMEOUT_MS} ms\n${out}\n${err}`)),
      START_TIMEOUT_MS,
    );
    const onData = () => {
      const line = out.split('\n').find((l) => l.startsWith(READY_PREFIX));
      if (!line) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      ok(JSON.parse(line.slice(READY_PREFIX.length)) as ReadyInfo);
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`standalone exited with ${code} before READY\n${out}\n${err}`));
    });
  }).catch(async (e: unknown) => {
    await dispose();
    throw e;
  });

  // The suite must run on the database it was asked for, or a server run proves nothing.
  const expected = database ? 'external' : 'embedded';
  if (info.database !== expected) {
    await dispose();
    throw new Error(`stack runs on ${info.database} Postgres, expected ${expected}`);
  }

  return {
    info,
    client: new Client(info.url),
    api: (apiKey = info.apiKey, language) =>
      new SkillsClient({ baseUrl: info.url, apiKey, language, fetch: checkedFetch(info.url) }),
    admin: info.adminToken,
    pid: child.pid as number,
    dataDir,
    database,
    stdout: () => out,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      const exited = waitForExit(child);
      child.kill(signal);
      return exited;
    },
    dispose,
  };
}

/**
 * The address verification link the stack logged after `since` (a length of `stack.stdout()` taken before
 * the sign-up): the embedded default has no SMTP_URL, so its operator reads the link from the log.
 */
export async function loggedVerificationLink(stack: Pick<Stack, 'stdout'>, since: number): Promise<string> {
  return eventually(
    async () => {
      for (const line of stack.stdout().slice(since).split('\n')) {
        if (!line.includes('open this link to verify the address')) continue;
        return (JSON.parse(line) as { link: string }).link;
      }
      return undefined;
    },
    'a logged verification link',
    5_000,
  );
}

/** The exact texts of the API contract and its decisions (docs/api.md), in both languages. */
export const TEXTS = {
  invalidKey: { en: 'Invalid or revoked API key', fr: 'Clé API invalide ou révoquée' },
  reauthenticate: { en: 'Enter your password again to do this (you signed in more than 10 minutes ago)' },
  planWithoutApi: {
    en: 'API access is available with a plan that includes API access',
    fr: "L'API est disponible avec un plan incluant l’accès API",
  },
  noAccess: { en: 'You do not have access to this workspace', fr: "Vous n'avez pas accès à cet espace de travail" },
  roleTooLow: {
    en: 'Your workspace role does not allow this action',
    fr: "Votre rôle dans l'espace de travail ne permet pas cette action",
  },
  collectionNotFound: { en: 'Collection not found', fr: 'Collection introuvable' },
} as const;

export const FR = { 'accept-language': 'fr' };

/** Creates an account with a key through the admin API; returns its id and key. */
export async function newAccount(
  stack: Pick<Stack, 'client' | 'admin'>,
  plan: 'free' | 'pro' | 'team' = 'pro',
): Promise<{ id: string; key: string; keyId: string }> {
  const email = `user-${Math.random().toString(36).slice(2)}@example.com`;
  const account = await stack.client.call('POST', '/admin/v1/accounts', { token: stack.admin, json: { email, plan } });
  if (account.status !== 201) throw new Error(`account: ${account.status} ${JSON.stringify(account.body)}`);
  const id = account.body.data.account.id as string;
  const key = await stack.client.call('POST', `/admin/v1/accounts/${id}/api-keys`, { token: stack.admin, json: {} });
  if (key.status !== 201) throw new Error(`key: ${key.status} ${JSON.stringify(key.body)}`);
  return { id, key: key.body.data.apiKey.key as string, keyId: key.body.data.apiKey.id as string };
}
