/**
 * A principal key pair for tests: a signer as the gateway has it and a
 * verifier per service, without files; `writeTo(dir)` writes the files the
 * processes read (PRINCIPAL_SIGNING_KEY_FILE, PRINCIPAL_PUBLIC_KEYS_FILE).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PrincipalSigner,
  PrincipalVerifier,
  fixedKeys,
  type PrincipalAudience,
  type PrincipalSignerOptions,
  type PrincipalVerifierOptions,
} from '../principal';
import { writeKeyFile } from '../principal-key-files';
import { generatePrincipalKeyPair, parsePublicKeys, parseSigningKey } from '../principal-key-pem';

export interface TestPrincipalKeys {
  kid: string;
  signingKeyPem: string;
  publicKeyPem: string;
  signer(options?: Omit<PrincipalSignerOptions, 'keys'>): PrincipalSigner;
  verifier(
    audience: PrincipalAudience,
    options?: Omit<PrincipalVerifierOptions, 'keys' | 'audience'>,
  ): PrincipalVerifier;
  /** writes both files into `dir`; returns their paths */
  writeTo(dir: string): Promise<{ signingKeyFile: string; publicKeysFile: string }>;
}

export function testPrincipalKeys(): TestPrincipalKeys {
  const pair = generatePrincipalKeyPair();
  const signing = fixedKeys(parseSigningKey(pair.signingKeyPem));
  const ring = fixedKeys(parsePublicKeys(pair.publicKeyPem));
  return {
    ...pair,
    signer: (options = {}) => new PrincipalSigner({ ...options, keys: signing }),
    verifier: (audience, options = {}) => new PrincipalVerifier({ ...options, audience, keys: ring }),
    async writeTo(dir) {
      const files = {
        signingKeyFile: join(dir, 'principal-signing-key.pem'),
        publicKeysFile: join(dir, 'principal-public-keys.pem'),
      };
      await writeKeyFile(files.signingKeyFile, pair.signingKeyPem);
      await writeKeyFile(files.publicKeysFile, pair.publicKeyPem);
      return files;
    },
  };
}

/** PRINCIPAL_PUBLIC_KEYS_FILE for a service started as main.ts starts it: `keys`' public half in a directory of its own. */
export async function publicKeysFile(keys: TestPrincipalKeys): Promise<{ path: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'principal-keys-'));
  const { publicKeysFile: path } = await keys.writeTo(dir);
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}
