/**
 * The admin token of the embedded run: the operator's ADMIN_TOKEN when given,
 * else the one saved in DATA_DIR/admin-token by an earlier start, else a new
 * random one saved there (mode 0600) so restarts and the admin CLI reuse it.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface AdminTokenSource {
  token: string;
  origin: 'env' | 'file' | 'generated';
  file: string;
}

export async function resolveAdminToken(dataDir: string, fromEnv?: string): Promise<AdminTokenSource> {
  const file = join(dataDir, 'admin-token');
  if (fromEnv) return { token: fromEnv, origin: 'env', file };
  try {
    const saved = (await readFile(file, 'utf8')).trim();
    if (saved.length >= 32) return { token: saved, origin: 'file', file };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const token = `adm_${randomBytes(32).toString('base64url')}`;
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  // writeFile's mode applies only when it creates the file.
  await chmod(file, 0o600);
  return { token, origin: 'generated', file };
}
