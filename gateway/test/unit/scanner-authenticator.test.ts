import { AuthenticationError } from '@skills/common';
import { hashApiKey } from '../../src/domain/keys/api-key';
import {
  generateScannerToken,
  offersScannerToken,
  parseScannerBearer,
  type StoredScanner,
} from '../../src/domain/scanner/scanner';
import { ScannerAuthenticator } from '../../src/domain/scanner/scanner-authenticator';

/** A store of scanners by token hash that counts its reads. */
function fakeStore(tokens: Record<string, { id: string; name: string; revoked?: boolean }>) {
  const byHash = new Map<string, StoredScanner>();
  for (const [token, s] of Object.entries(tokens)) {
    const tokenHash = hashApiKey(token);
    byHash.set(tokenHash.toString('hex'), { scannerId: s.id, name: s.name, tokenHash, revoked: s.revoked ?? false });
  }
  const store = {
    reads: 0,
    findByHash: async (hash: Buffer) => {
      store.reads += 1;
      return byHash.get(hash.toString('hex'));
    },
    revoke: (token: string) => {
      const found = byHash.get(hashApiKey(token).toString('hex'));
      if (found) found.revoked = true;
    },
  };
  return store;
}

describe('ScannerAuthenticator', () => {
  const token = generateScannerToken();
  const bearer = `Bearer ${token}`;

  it('turns a known token into the scanner principal, read once while cached', async () => {
    const store = fakeStore({ [token]: { id: 's1', name: 'static-analysis' } });
    const sut = new ScannerAuthenticator({ scanners: store });
    await expect(sut.authenticate(bearer)).resolves.toEqual({
      kind: 'scanner',
      scannerId: 's1',
      name: 'static-analysis',
    });
    await sut.authenticate(bearer);
    expect(store.reads).toBe(1);
  });

  it('refuses malformed tokens without reading the store, and unknown or revoked ones after reading it', async () => {
    const revoked = generateScannerToken();
    const store = fakeStore({ [revoked]: { id: 's2', name: 'old', revoked: true } });
    const sut = new ScannerAuthenticator({ scanners: store });
    for (const header of [undefined, 'Bearer sks_short', `Bearer ${token}x`, `Basic ${token}`]) {
      await expect(sut.authenticate(header)).rejects.toEqual(new AuthenticationError('auth.invalidScannerToken'));
    }
    expect(store.reads).toBe(0);
    await expect(sut.authenticate(bearer)).rejects.toBeInstanceOf(AuthenticationError);
    await expect(sut.authenticate(`Bearer ${revoked}`)).rejects.toBeInstanceOf(AuthenticationError);
    expect(store.reads).toBe(2);
  });

  it('refuses a token revoked here on the next request, cache or not', async () => {
    const store = fakeStore({ [token]: { id: 's1', name: 'a' } });
    const sut = new ScannerAuthenticator({ scanners: store, cacheTtlMs: 60_000 });
    await sut.authenticate(bearer);
    store.revoke(token);
    sut.forget('s1');
    await expect(sut.authenticate(bearer)).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('keeps a known token cached through a flood of made-up ones, each checked against the budget of its address', async () => {
    const store = fakeStore({ [token]: { id: 's1', name: 'a' } });
    const sut = new ScannerAuthenticator({ scanners: store, cacheTtlMs: 60_000 });
    await sut.authenticate(bearer);
    let checked = 0;
    const beforeUnknown = async () => {
      checked += 1;
    };
    for (let i = 0; i < 1_500; i += 1)
      await expect(sut.authenticate(`Bearer ${generateScannerToken()}`, { beforeUnknown })).rejects.toBeInstanceOf(
        AuthenticationError,
      );
    expect(checked).toBe(1_500);
    const reads = store.reads;
    await sut.authenticate(bearer, { beforeUnknown });
    expect([store.reads - reads, checked]).toEqual([0, 1_500]);
  });

  it('tells a scanner token apart from a key by its prefix, and parses only well-formed ones', () => {
    expect(generateScannerToken()).toMatch(/^sks_[0-9A-Za-z]{40}$/);
    expect(offersScannerToken('bearer  sks_anything')).toBe(true);
    expect(offersScannerToken('Bearer sk_live_0123456789abcdefghijABCDEFGHIJkl')).toBe(false);
    expect(parseScannerBearer('Bearer sks_anything')).toBeUndefined();
    expect(parseScannerBearer(bearer)).toBe(token);
  });
});
