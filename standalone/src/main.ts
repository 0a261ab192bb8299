/**
 * `npm start`: the embedded all-in-one run. The only reader of process.env
 * in this package's launcher; everything else is in launcher.ts and seed.ts.
 */
import { createLogger, runService } from '@skills/common';
import { banner } from './banner';
import { launch, type RunningStack } from './launcher';
import { BUNDLED_SAMPLE } from './sample-data';
import { loadLauncherConfig } from './launcher-config';
import { withSearchModel } from './search-model';

runService(
  {
    name: 'standalone',
    loadConfig: loadLauncherConfig,
    async start(config) {
      const loggerFor = (service: string) => createLogger({ service, level: config.logLevel });
      let stack: RunningStack | undefined;
      // A service that dies leaves no usable stack: stop the rest and fail, as one process would.
      const onServiceExit = (service: string, code: number | null) => {
        loggerFor('standalone').error({ process: service, code }, 'a service process ended: stopping');
        void (stack?.close() ?? Promise.resolve()).finally(() => process.exit(1));
      };
      const catalog = await withSearchModel(config.passedOn.catalog, process.stderr);
      stack = await launch({
        config: { ...config, passedOn: { ...config.passedOn, catalog } },
        loggerFor,
        sample: BUNDLED_SAMPLE,
        onServiceExit,
      });
      process.stdout.write(banner(stack));
      return stack;
    },
  },
  process.env,
);
