import { randomBytes } from 'node:crypto';
import { chmod, mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { PgliteWireServer } from './pglite-wire-server';

export interface EmbeddedPostgres {
  /** a postgres:// URL that `pg` and Sequelize connect to, password included */
  url: string;
  port: number;
  /** the whole data directory as a tarball, for `initialData` (PGlite's dumpDataDir) */
  dump(): Promise<Blob>;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** directory of the data files; in memory when absent */
  dataDir?: string;
  host?: string;
  /** 0 picks a free port */
  port?: number;
  /** the password clients must give; a random one for this start when absent */
  password?: string;
  /** a dump() to start from instead of an empty cluster: no initdb, most of a start's cost */
  initialData?: Blob;
}

/** Creates `dir` readable by its owner only, or makes an existing one so. */
export async function privateDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}

/**
 * PGlite (Postgres compiled to WebAssembly) served over the Postgres wire
 * protocol, so the services use the same `pg` driver as against a server.
 * It is not open to other users of the machine: it listens on loopback,
 * asks for a password (random per start unless given), and its data
 * directory is readable by its owner only.
 * PGlite is one session shared by every connection (see PgliteWireServer):
 * code must never wait on a second connection while holding a transaction
 * open, or it waits for itself.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  // The contrib modules ship typings for ESM only; a dynamic import loads them from CommonJS.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  if (options.dataDir) await privateDirectory(options.dataDir);
  const db = await PGlite.create({
    dataDir: options.dataDir,
    extensions: { pg_trgm },
    loadDataDir: options.initialData,
  });
  const host = options.host ?? '127.0.0.1';
  const password = options.password ?? randomBytes(24).toString('base64url');
  const server = new PgliteWireServer(db, { password });
  const port = await server.listen(options.port ?? 0, host);
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@${host}:${port}/postgres?sslmode=disable`,
    port,
    dump: () => db.dumpDataDir('none'),
    async stop() {
      await server.close();
      await db.close();
    },
  };
}
