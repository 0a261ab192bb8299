/**
 * `npm run start:distributed`: the production topology on this machine
 * without Docker (distributed/topology.ts): Elasticsearch 9 and Kafka from
 * local-servers/, then the services as separate processes with
 * docker-compose.yml's settings, and catalog-service's search model as
 * `npm start` fetches it. Prints the same banner and READY line as
 * `npm start`. The only reader of process.env of this launcher.
 */
import { resolve } from 'node:path';
import { runService } from '@skills/common';
import { banner } from './banner';
import { loadDistributedConfig } from './distributed/distributed-config';
import { startLocalServers } from './distributed/local-servers';
import { launchTopology } from './distributed/topology';
import { withSearchModel } from './search-model';

const ROOT = resolve(__dirname, '..', '..');

runService(
  {
    name: 'start:distributed',
    loadConfig: loadDistributedConfig,
    async start(config, logger) {
      const servers = await startLocalServers(ROOT);
      logger.info({ elasticsearch: servers.elasticsearchUrl, kafka: servers.kafka.saslBrokers }, 'servers ready');
      // fetched once here, with its progress line, rather than by each catalog replica at once
      const catalog = await withSearchModel({}, process.stderr);
      const stack = await launchTopology({
        ...config,
        root: ROOT,
        servers,
        output: process.stderr,
        logger,
        extraEnv: { 'catalog-service': catalog },
      });
      process.stdout.write(banner(stack));
      return stack;
    },
  },
  process.env,
);
