/** Process entry: the only reader of process.env. */
import { runService } from '@skills/common';
import { loadCatalogConfig } from './config';
import { startCatalogService } from './service';

runService({ name: 'catalog-service', loadConfig: loadCatalogConfig, start: startCatalogService }, process.env);
