import { PGlite } from '@electric-sql/pglite';
import { PgliteWireServer } from './pglite-wire-server';

export interface EmbeddedPostgres {
  /** a postgres:// URL that `pg` and Sequelize connect to */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** directory of the data files; in memory when absent */
  dataDir?: string;
  host?: string;
  /** 0 picks a free port */
  port?: number;
}

/**
 * PGlite (Postgres compiled to WebAssembly) served over the Postgres wire
 * protocol, so the services use the same `pg` driver as against a server.
 * PGlite is one session shared by every connection (see PgliteWireServer):
 * code must never wait on a second connection while holding a transaction
 * open, or it waits for itself.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  // The contrib modules ship typings for ESM only; a dynamic import loads them from CommonJS.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const db = await PGlite.create({ dataDir: options.dataDir, extensions: { pg_trgm } });
  const host = options.host ?? '127.0.0.1';
  const server = new PgliteWireServer(db);
  const port = await server.listen(options.port ?? 0, host);
  return {
    url: `postgres://postgres@${host}:${port}/postgres?sslmode=disable`,
    port,
    async stop() {
      await server.close();
      await db.close();
    },
  };
}
