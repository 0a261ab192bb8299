/** Child process of the bench: an in-memory PGlite on a free port; prints `URL <url>` and runs until SIGTERM. */
import { startEmbeddedPostgres } from '@skills/common';

async function main(): Promise<void> {
  const db = await startEmbeddedPostgres();
  process.stdout.write(`URL ${db.url}\n`);
  const stop = () => {
    db.stop().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`embedded database failed: ${String(err)}\n`);
  process.exit(1);
});
