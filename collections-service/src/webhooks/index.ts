export {
  WebhookDispatcher,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_DNS_TIMEOUT_MS,
  DEFAULT_GIVE_UP_AFTER_MS,
  DEFAULT_RETRY_SCHEDULE_MS,
  type WebhookDispatcherOptions,
} from './webhook-dispatcher';
export { dnsResolver, HostLookupError, type HostResolver } from './host-resolver';
export { WebhookService } from './webhook.service';
export { SqlWebhookRepository } from './webhook.repository';
export { signatureOf, WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from './signature';
export { isNonPublicAddress, type TargetPolicy } from './target-guard';
