/** Process entry: the only reader of process.env. */
import { runService } from '@skills/common';
import { loadCollectionsConfig } from './config';
import { startCollectionsService } from './service';

runService(
  { name: 'collections-service', loadConfig: loadCollectionsConfig, start: startCollectionsService },
  process.env,
);
