/**
 * `npm start`: the embedded all-in-one run. The only reader of process.env
 * in this package's launcher; everything else is in launcher.ts and seed.ts.
 */
import { createLogger, runService } from '@skills/common';
import { banner } from './banner';
import { launch } from './launcher';
import { BUNDLED_SAMPLE } from './sample-data';
import { loadLauncherConfig } from './launcher-config';
import { withSearchModel } from './search-model';

runService(
  {
    name: 'standalone',
    loadConfig: loadLauncherConfig,
    async start(config) {
      const loggerFor = (service: string) => createLogger({ service, level: config.logLevel });
      const catalogEnv = await withSearchModel(config.catalogEnv, process.stderr);
      const stack = await launch({ config: { ...config, catalogEnv }, loggerFor, sample: BUNDLED_SAMPLE });
      process.stdout.write(banner(stack));
      return stack;
    },
  },
  process.env,
);
