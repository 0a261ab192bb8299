/**
 * `node standalone/dist/embedded-postgres-main.js`: the embedded PGlite as a
 * process of its own, serving DATA_DIR (in memory when unset) on PG_PORT
 * (a free port when 0) with the password PG_PASSWORD (a random one when
 * unset; give it to restart on the same URL). It lets the services run as
 * separate processes against it, and lets fault tests kill the database and
 * start it again on the same port and data files without touching them.
 * Prints `READY <url>` (password included) once it accepts connections; SIGTERM closes the data
 * files cleanly (SIGKILL is the crash).
 */
import { startEmbeddedPostgres } from '@skills/common';

async function main(): Promise<void> {
  const dataDir = process.env.DATA_DIR || undefined;
  const port = Number(process.env.PG_PORT ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write('PG_PORT must be a port number (0..65535)\n');
    process.exit(1);
  }
  const db = await startEmbeddedPostgres({ dataDir, port, password: process.env.PG_PASSWORD || undefined });
  process.stdout.write(`READY ${db.url}\n`);
  const stop = (): void => {
    db.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`stop failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `embedded postgres failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
