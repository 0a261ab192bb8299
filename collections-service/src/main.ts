/** Process entry: the only reader of process.env. */
import { runService } from '@skills/common';
import { loadCollectionsConfig, startCollectionsService } from './index';

runService({ name: 'collections-service', loadConfig: loadCollectionsConfig, start: startCollectionsService }, process.env);
