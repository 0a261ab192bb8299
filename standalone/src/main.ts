/**
 * `npm start`: the embedded all-in-one run. The only reader of process.env
 * in this package's launcher; everything else is in launcher.ts and seed.ts.
 */
import { join } from 'node:path';
import { createLogger, runService } from '@skills/common';
import { banner } from './banner';
import { launch } from './launcher';
import { loadLauncherConfig } from './launcher-config';

const SAMPLE_CATALOG = join(__dirname, '..', 'data', 'sample-catalog.ndjson');

runService(
  {
    name: 'standalone',
    loadConfig: loadLauncherConfig,
    async start(config) {
      const loggerFor = (service: string) => createLogger({ service, level: config.logLevel });
      const stack = await launch({ config, loggerFor, sampleCatalogFile: SAMPLE_CATALOG });
      process.stdout.write(banner(stack));
      return stack;
    },
  },
  process.env,
);
