/**
 * The gateway's key pair as these tests see it: requests are signed with it
 * (`KEYS.signer()`), a started service reads its public half from a file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testPrincipalKeys } from '@skills/common/testing';

export const KEYS = testPrincipalKeys();

/** PRINCIPAL_PUBLIC_KEYS_FILE for a service started as main.ts starts it, in a directory of its own. */
export async function publicKeysFile(): Promise<{ path: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'catalog-keys-'));
  const { publicKeysFile: path } = await KEYS.writeTo(dir);
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}
