export { createGatewayApp, type GatewayDeps } from './app';
export { startGateway, type GatewayStartOptions, type RunningService } from './service';
export { GATEWAY_CONFIG_DEFAULTS, GATEWAY_ENV, loadGatewayConfig, type GatewayConfig } from './config';
export { gatewayMigrations, GATEWAY_SCHEMA } from './store/migrations';
export {
  generateApiKey,
  hashApiKey,
  displayPrefix,
  parseBearer,
  isWellFormedKey,
  KEY_PREFIX,
} from './domain/keys/api-key';
export { KeyAuthenticator } from './domain/keys/key-authenticator';
export { AccountService } from './domain/accounts/account.service';
export { Upstream } from './http/proxy/upstream-proxy';
export { DEFAULT_ADMISSION, type AdmissionLimits } from './http/limits/admission';
export { SequelizeAccountRepository } from './store/account.repository';
export { SequelizeKeyRepository } from './store/api-key.repository';
export { openApiDocument } from './openapi/document';
