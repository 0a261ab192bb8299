/**
 * `npm run principal-keys -- <command>` (in the image: `principal-keys
 * <command>`): the principal key pair on disk and its rotation, step by step
 * (docs/security.md "Principal keys and their rotation"). The files are
 * PRINCIPAL_SIGNING_KEY_FILE and PRINCIPAL_PUBLIC_KEYS_FILE, as the processes
 * name them, else the embedded run's files in DATA_DIR. Prints the key ids
 * as JSON; never a key.
 */
import { join, resolve } from 'node:path';
import {
  PUBLIC_KEYS_FILE,
  SIGNING_KEY_FILE,
  ensurePrincipalKeys,
  finishRotation,
  keyStatus,
  signWithNextKey,
  startRotation,
  type KeyPaths,
} from '../principal-key-rotation';

const USAGE = `usage: principal-keys <command>
  init           make a key pair unless one is there
  status         the key ids: signing, accepted by the services, prepared
  rotate-start   1. prepare a new key; the services accept it besides the current one
  rotate-sign    2. the gateway signs with the new key (after every service read step 1)
  rotate-finish  3. the services accept the new key only (5 s + reload interval after step 2)
files: PRINCIPAL_SIGNING_KEY_FILE, PRINCIPAL_PUBLIC_KEYS_FILE (default: DATA_DIR, .data)`;

function pathsOf(env: NodeJS.ProcessEnv): KeyPaths {
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  return {
    signingKeyFile: env.PRINCIPAL_SIGNING_KEY_FILE ?? join(dataDir, SIGNING_KEY_FILE),
    publicKeysFile: env.PRINCIPAL_PUBLIC_KEYS_FILE ?? join(dataDir, PUBLIC_KEYS_FILE),
  };
}

const COMMANDS: Record<string, (paths: KeyPaths) => Promise<object>> = {
  init: async (paths) => {
    const { kid, origin } = await ensurePrincipalKeys(paths);
    return { kid, origin };
  },
  status: keyStatus,
  'rotate-start': startRotation,
  'rotate-sign': signWithNextKey,
  'rotate-finish': finishRotation,
};

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const command = COMMANDS[argv[0] ?? ''];
  if (!command || argv.length !== 1) {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = 64;
    return;
  }
  process.stdout.write(`${JSON.stringify(await command(pathsOf(env)))}\n`);
}

main(process.argv.slice(2), process.env).catch((err: unknown) => {
  process.stderr.write(`principal-keys: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
