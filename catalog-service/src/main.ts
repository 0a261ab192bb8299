/** Process entry: the only reader of process.env. */
import { runService } from '@skills/common';
import { loadCatalogConfig, startCatalogService } from './index';

runService({ name: 'catalog-service', loadConfig: loadCatalogConfig, start: startCatalogService }, process.env);
