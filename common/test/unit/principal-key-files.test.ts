/**
 * Key files read again while the process runs: what a rotation relies on
 * (new keys taken without a restart), and what must not happen on the way
 * (a broken or half-written file locking everyone out).
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import {
  ConfigError,
  keyFileOf,
  openPublicKeysFile,
  openSigningKeyFile,
  writeKeyFile,
  writePrincipalKeyFiles,
} from '../../src';
import { testPrincipalKeys } from '../../src/testing';
import { silentLogger } from '@skills/common/testing';

const logger = silentLogger();
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'principal-keys-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('principal key files', () => {
  it('takes the keys of a replaced file on the next read, without a restart', async () => {
    const [a, b] = [testPrincipalKeys(), testPrincipalKeys()];
    const path = join(dir, 'public.pem');
    await writeKeyFile(path, a.publicKeyPem);
    const file = await openPublicKeysFile({ path, reloadMs: 0, logger });
    expect(file.current().kids).toEqual([a.kid]);
    await writeKeyFile(path, a.publicKeyPem + b.publicKeyPem);
    await file.reload();
    expect(file.current().kids).toEqual([a.kid, b.kid]);
    await writeKeyFile(path, b.publicKeyPem);
    await file.reload();
    expect(file.current().kids).toEqual([b.kid]);
    expect(file.current().byKid(a.kid)).toBeUndefined();
    file.close();
  });

  it('keeps the keys in use when the file turns invalid or disappears, and says so', async () => {
    const a = testPrincipalKeys();
    const path = join(dir, 'signing.pem');
    await writeKeyFile(path, a.signingKeyPem);
    const errors: string[] = [];
    const recording = pino(
      { level: 'error' },
      { write: (line: string) => void errors.push(JSON.parse(line).msg as string) },
    );
    const file = await openSigningKeyFile({ path, reloadMs: 0, logger: recording });
    await writeFile(path, a.signingKeyPem.slice(0, 40));
    await file.reload();
    expect(file.current().kid).toBe(a.kid);
    await rm(path);
    await file.reload();
    expect(file.current().kid).toBe(a.kid);
    expect(errors).toEqual([
      'principal signing key file invalid; keeping the keys in use',
      'principal signing key file unreadable; keeping the keys in use',
    ]);
    file.close();
  });

  it('fails the start naming the variable when the file is missing or holds no key', async () => {
    const opening = keyFileOf(
      'PRINCIPAL_PUBLIC_KEYS_FILE',
      openPublicKeysFile({ path: join(dir, 'absent.pem'), reloadMs: 0, logger }),
    );
    await expect(opening).rejects.toThrow(ConfigError);
    await expect(opening).rejects.toThrow(/PRINCIPAL_PUBLIC_KEYS_FILE: cannot read the principal public keys file/);
    const wrong = join(dir, 'wrong.pem');
    await writeKeyFile(wrong, testPrincipalKeys().publicKeyPem);
    await expect(
      keyFileOf('PRINCIPAL_SIGNING_KEY_FILE', openSigningKeyFile({ path: wrong, reloadMs: 0, logger })),
    ).rejects.toThrow(/PRINCIPAL_SIGNING_KEY_FILE: .*wrong\.pem: the signing key is not a PEM private key/);
  });

  it('writes new key pairs readable by their owner only', async () => {
    const files = await writePrincipalKeyFiles(dir);
    for (const path of [files.signingKeyFile, files.publicKeysFile])
      expect((await stat(path)).mode & 0o777).toBe(0o600);
    const signing = await openSigningKeyFile({ path: files.signingKeyFile, reloadMs: 0, logger });
    const ring = await openPublicKeysFile({ path: files.publicKeysFile, reloadMs: 0, logger });
    expect(ring.current().kids).toEqual([signing.current().kid]);
    expect(files.kid).toBe(signing.current().kid);
  });
});
