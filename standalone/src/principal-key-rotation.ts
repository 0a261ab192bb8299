/**
 * The principal key pair on disk, and the three steps of a rotation
 * (docs/security.md "Principal keys and their rotation"). The embedded run
 * keeps its pair in DATA_DIR; compose keeps it in two volumes (the gateway
 * mounts the private one, the services the public one); the `principal-keys`
 * command runs these steps on either. Every file is written mode 0600 and
 * replaced in one step, so a process reading it never sees half a key.
 */
import { createPublicKey } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  generatePrincipalKeyPair,
  parsePublicKeys,
  parseSigningKey,
  writeKeyFile,
  type PrincipalKeyFiles,
} from '@skills/common';

export const SIGNING_KEY_FILE = 'principal-signing-key.pem';
export const PUBLIC_KEYS_FILE = 'principal-public-keys.pem';

/** Where a pair lives: the gateway's file and the services' file. */
export interface KeyPaths {
  signingKeyFile: string;
  publicKeysFile: string;
}

export interface PrincipalKeySource extends PrincipalKeyFiles {
  origin: 'file' | 'generated';
}

/** What the files hold now: the key the gateway signs with, the keys the services accept, a key waiting to sign. */
export interface KeyStatus {
  signingKid: string;
  acceptedKids: string[];
  nextKid?: string;
}

export class RotationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RotationError';
  }
}

/** The key prepared by `startRotation`, beside the signing key (and as private). */
function nextKeyFile(paths: KeyPaths): string {
  return join(dirname(paths.signingKeyFile), `next-${SIGNING_KEY_FILE}`);
}

function publicPemOf(signingKeyPem: string): string {
  return createPublicKey(parseSigningKey(signingKeyPem).privateKey).export({ format: 'pem', type: 'spki' }).toString();
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The saved pair when both files hold keys that belong together; undefined otherwise. */
async function savedPair(paths: KeyPaths): Promise<PrincipalKeyFiles | undefined> {
  try {
    const signing = parseSigningKey((await readOptional(paths.signingKeyFile)) ?? '');
    const ring = parsePublicKeys((await readOptional(paths.publicKeysFile)) ?? '');
    return ring.byKid(signing.kid) ? { ...paths, kid: signing.kid } : undefined;
  } catch {
    return undefined;
  }
}

/** The pair at `paths` when it is there and whole, else a new one written there. */
export async function ensurePrincipalKeys(paths: KeyPaths): Promise<PrincipalKeySource> {
  const saved = await savedPair(paths);
  if (saved) return { ...saved, origin: 'file' };
  const pair = generatePrincipalKeyPair();
  await writeKeyFile(paths.signingKeyFile, pair.signingKeyPem);
  await writeKeyFile(paths.publicKeysFile, pair.publicKeyPem);
  return { ...paths, kid: pair.kid, origin: 'generated' };
}

/** The embedded run's pair, in DATA_DIR. */
export function resolvePrincipalKeys(dataDir: string): Promise<PrincipalKeySource> {
  return ensurePrincipalKeys({
    signingKeyFile: join(dataDir, SIGNING_KEY_FILE),
    publicKeysFile: join(dataDir, PUBLIC_KEYS_FILE),
  });
}

export async function keyStatus(paths: KeyPaths): Promise<KeyStatus> {
  const signing = parseSigningKey(await readFile(paths.signingKeyFile, 'utf8'));
  const ring = parsePublicKeys(await readFile(paths.publicKeysFile, 'utf8'));
  const next = await readOptional(nextKeyFile(paths));
  return {
    signingKid: signing.kid,
    acceptedKids: [...ring.kids],
    ...(next ? { nextKid: parseSigningKey(next).kid } : {}),
  };
}

/**
 * Step 1: a new private key is kept aside and its public key joins the
 * current one in the services' file. The gateway still signs with the old
 * key; once every service has read the file, both are accepted.
 */
export async function startRotation(paths: KeyPaths): Promise<KeyStatus> {
  const status = await keyStatus(paths);
  if (status.nextKid)
    throw new RotationError(`a rotation is already under way (next key ${status.nextKid}): sign with it, then finish`);
  const current = await readFile(paths.signingKeyFile, 'utf8');
  const next = generatePrincipalKeyPair();
  await writeKeyFile(nextKeyFile(paths), next.signingKeyPem);
  await writeKeyFile(paths.publicKeysFile, publicPemOf(current) + next.publicKeyPem);
  return keyStatus(paths);
}

/** Step 2: the gateway signs with the new key (it reads its file again); the services accept both. */
export async function signWithNextKey(paths: KeyPaths): Promise<KeyStatus> {
  const status = await keyStatus(paths);
  if (!status.nextKid) throw new RotationError('no rotation under way: start one first');
  if (!status.acceptedKids.includes(status.nextKid)) {
    throw new RotationError(
      `the services' file does not hold the next key ${status.nextKid}: signing with it now would be refused`,
    );
  }
  await writeKeyFile(paths.signingKeyFile, await readFile(nextKeyFile(paths), 'utf8'));
  await rm(nextKeyFile(paths));
  return keyStatus(paths);
}

/** Step 3: the services stop accepting the old key; only the one the gateway signs with remains. */
export async function finishRotation(paths: KeyPaths): Promise<KeyStatus> {
  const status = await keyStatus(paths);
  if (status.nextKid)
    throw new RotationError(`the gateway does not sign with the next key ${status.nextKid} yet: do that step first`);
  await writeKeyFile(paths.publicKeysFile, publicPemOf(await readFile(paths.signingKeyFile, 'utf8')));
  return keyStatus(paths);
}
