import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePublicKeys, parseSigningKey } from '@skills/common';
import { testPrincipalKeys } from '@skills/common/testing';
import {
  RotationError,
  finishRotation,
  keyStatus,
  resolvePrincipalKeys,
  signWithNextKey,
  startRotation,
} from '../../../src/principal-key-rotation';

describe('resolvePrincipalKeys', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'principal-keys-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('makes an Ed25519 pair on first start, readable by the owner only, and reuses it', async () => {
    const first = await resolvePrincipalKeys(join(dir, 'data'));
    expect(first.origin).toBe('generated');
    for (const file of [first.signingKeyFile, first.publicKeysFile])
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    const signing = parseSigningKey(await readFile(first.signingKeyFile, 'utf8'));
    expect(signing.kid).toBe(first.kid);
    expect(parsePublicKeys(await readFile(first.publicKeysFile, 'utf8')).kids).toEqual([first.kid]);
    // the services' file holds no private key
    expect(await readFile(first.publicKeysFile, 'utf8')).not.toContain('PRIVATE KEY');

    const second = await resolvePrincipalKeys(join(dir, 'data'));
    expect(second).toEqual({ ...first, origin: 'file' });
    expect((await resolvePrincipalKeys(join(dir, 'elsewhere'))).kid).not.toBe(first.kid);
  });

  it('replaces a pair that does not belong together or does not parse', async () => {
    const first = await resolvePrincipalKeys(dir);
    await writeFile(first.publicKeysFile, testPrincipalKeys().publicKeyPem);
    const mismatched = await resolvePrincipalKeys(dir);
    expect(mismatched.origin).toBe('generated');
    expect(mismatched.kid).not.toBe(first.kid);
    await writeFile(mismatched.signingKeyFile, 'not a key');
    expect((await resolvePrincipalKeys(dir)).origin).toBe('generated');
  });

  it('rotates in three steps, each refused out of turn so no step can lock the services out', async () => {
    const paths = await resolvePrincipalKeys(dir);
    await expect(signWithNextKey(paths)).rejects.toThrow(RotationError);
    const started = await startRotation(paths);
    expect(started).toEqual({
      signingKid: paths.kid,
      acceptedKids: [paths.kid, started.nextKid],
      nextKid: expect.any(String),
    });
    await expect(startRotation(paths)).rejects.toThrow(/already under way/);
    await expect(finishRotation(paths)).rejects.toThrow(/does not sign with the next key/);
    const signing = await signWithNextKey(paths);
    expect(signing).toEqual({ signingKid: started.nextKid, acceptedKids: [paths.kid, started.nextKid] });
    expect(await finishRotation(paths)).toEqual({ signingKid: started.nextKid, acceptedKids: [started.nextKid] });
    expect(await keyStatus(paths)).toEqual({ signingKid: started.nextKid, acceptedKids: [started.nextKid] });
    for (const file of [paths.signingKeyFile, paths.publicKeysFile])
      expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});
