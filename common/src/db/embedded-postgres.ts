import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

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
  /** concurrent client connections the socket server multiplexes */
  maxConnections?: number;
}

/**
 * PGlite (Postgres compiled to WebAssembly) served over the Postgres wire
 * protocol, so the services use the same `pg` driver as against a server.
 * PGlite is one session: the socket server queues queries and keeps a
 * transaction's statements together, so code must never wait on a second
 * connection while holding a transaction open.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  // The contrib modules ship typings for ESM only; a dynamic import loads them from CommonJS.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const db = await PGlite.create({ dataDir: options.dataDir, extensions: { pg_trgm } });
  const host = options.host ?? '127.0.0.1';
  const server = new PGLiteSocketServer({
    db,
    host,
    port: options.port ?? 0,
    maxConnections: options.maxConnections ?? 64,
  });
  await server.start();
  const port = Number(new URL(`postgres://${server.getServerConn()}`).port);
  return {
    url: `postgres://postgres@${host}:${port}/postgres?sslmode=disable`,
    port,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
