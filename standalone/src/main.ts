/**
 * `npm start`: the embedded all-in-one run. The only reader of process.env
 * in this package's launcher; everything else is in launcher.ts and seed.ts.
 */
import { join } from 'node:path';
import { ConfigError, createLogger } from '@skills/common';
import { banner } from './banner';
import { launch, type RunningStack } from './launcher';
import { loadLauncherConfig, type LauncherConfig } from './launcher-config';

const SAMPLE_CATALOG = join(__dirname, '..', 'data', 'sample-catalog.ndjson');

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  let config: LauncherConfig;
  try {
    config = loadLauncherConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  const loggerFor = (service: string) => createLogger({ service, level: config.logLevel });
  const logger = loggerFor('standalone');

  let stack: RunningStack | undefined;
  let stopping = false;
  const stop = (signal: string): void => {
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // During start-up the stack is closed as soon as launch() returns (below), so the
    // embedded database is never cut off mid-write; a second signal kills at once (`once`).
    if (!stack) return;
    stack.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));

  stack = await launch({ config, loggerFor, sampleCatalogFile: SAMPLE_CATALOG });
  if (stopping) {
    await stack.close();
    process.exit(0);
  }
  process.stdout.write(banner(stack));
}

main().catch((err: unknown) => {
  fail(`standalone failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
});
