import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveAdminToken } from '../../../src/admin-token';

describe('resolveAdminToken', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'admin-token-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('generates a long random token once, saves it readable by the owner only, and reuses it', async () => {
    const first = await resolveAdminToken(join(dir, 'data'));
    expect(first.origin).toBe('generated');
    expect(first.token.length).toBeGreaterThanOrEqual(32);
    expect((await stat(first.file)).mode & 0o777).toBe(0o600);
    expect((await readFile(first.file, 'utf8')).trim()).toBe(first.token);

    const second = await resolveAdminToken(join(dir, 'data'));
    expect(second).toEqual({ ...first, origin: 'file' });
    const other = await resolveAdminToken(join(dir, 'elsewhere'));
    expect(other.token).not.toBe(first.token);
  });

  it('prefers the operator token and does not write it to disk', async () => {
    const given = 'x'.repeat(40);
    const resolved = await resolveAdminToken(dir, given);
    expect(resolved).toMatchObject({ token: given, origin: 'env' });
    await expect(stat(resolved.file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('replaces a saved token too short for the gateway', async () => {
    await writeFile(join(dir, 'admin-token'), 'short\n');
    const resolved = await resolveAdminToken(dir);
    expect(resolved.origin).toBe('generated');
    expect((await readFile(resolved.file, 'utf8')).trim()).toBe(resolved.token);
  });
});
