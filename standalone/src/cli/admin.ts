/**
 * The admin CLI (`npm run admin -- <command>`): a thin client over the
 * gateway's /admin/v1 API. It prints the answer's `data` as JSON on stdout
 * (`reindex`: the job once it has ended, progress on stderr meanwhile);
 * on failure it prints the API's error message on stderr and exits 1.
 * This entry point is the only place of the CLI that reads the environment.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ApiError, SkillsAdminClient } from '@skills/client';
import { parseAdminArgs, USAGE, UsageError } from './admin-args';
import { FollowStoppedError, followReindex } from './follow-reindex';
import { importFile } from './import-file';

const DEFAULT_URL = 'http://127.0.0.1:8080';

/** ADMIN_TOKEN wins; otherwise the token file `npm start` keeps in DATA_DIR. */
function adminToken(env: NodeJS.ProcessEnv): string {
  if (env.ADMIN_TOKEN) return env.ADMIN_TOKEN;
  const file = join(resolve(env.DATA_DIR ?? '.data'), 'admin-token');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    throw new Error(`no admin token: set ADMIN_TOKEN or start the stack once (npm start) to create ${file}`);
  }
}

/**
 * The first Ctrl-C stops following a reindex (the job runs on in
 * catalog-service); `once`, so a second Ctrl-C exits at once as usual.
 */
function stopOnCtrlC(): AbortSignal {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  return controller.signal;
}

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { url, action } = parseAdminArgs(argv);
  if (action.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const client = new SkillsAdminClient({ baseUrl: url ?? env.GATEWAY_URL ?? DEFAULT_URL, adminToken: adminToken(env) });
  if (action.kind === 'import') {
    const imported = await importFile(client, action.file);
    process.stdout.write(`${JSON.stringify({ imported })}\n`);
    return;
  }
  if (action.kind === 'reindex') {
    const job = await followReindex(client, action.jobId, { signal: stopOnCtrlC() });
    process.stdout.write(`${JSON.stringify({ job }, null, 2)}\n`);
    return;
  }
  const { operation, kind: _kind, ...call } = action;
  const data = await client.send(operation, call);
  process.stdout.write(`${JSON.stringify(data ?? null, null, 2)}\n`);
}

run(process.argv.slice(2), process.env).catch((err: unknown) => {
  if (err instanceof FollowStoppedError) {
    // not a failure of the job: say how to pick it up again; 130 as for any Ctrl-C
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 130;
    return;
  }
  if (err instanceof UsageError) {
    process.stderr.write(`error: ${err.message}\n\n${USAGE}\n`);
  } else if (err instanceof ApiError) {
    process.stderr.write(`error (${err.status}): ${err.message}\n`);
  } else {
    process.stderr.write(`error: ${(err as Error).message ?? String(err)}\n`);
  }
  process.exitCode = 1;
});
