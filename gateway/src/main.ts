/** Process entry: the only reader of process.env. */
import { runService } from '@skills/common';
import { loadGatewayConfig } from './config';
import { startGateway } from './service';

runService({ name: 'gateway', loadConfig: loadGatewayConfig, start: startGateway }, process.env);
