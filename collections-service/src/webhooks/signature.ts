/** The signature scheme of deliveries (docs/governance.md "Signed webhooks"). */
import { createHmac } from 'node:crypto';

export const WEBHOOK_ID_HEADER = 'Skills-Webhook-Id';
export const WEBHOOK_TIMESTAMP_HEADER = 'Skills-Webhook-Timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'Skills-Webhook-Signature';

/** `v1=<hex>`: HMAC-SHA256 keyed by the endpoint's secret over `<timestamp>.<body>`. */
export function signatureOf(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The headers of one attempt; the timestamp is the attempt's, in unix seconds. */
export function signedHeaders(secret: string, eventId: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    [WEBHOOK_ID_HEADER]: eventId,
    [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
    [WEBHOOK_SIGNATURE_HEADER]: signatureOf(secret, timestamp, body),
  };
}
