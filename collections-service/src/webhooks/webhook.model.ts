/** The records and views of signed webhooks (docs/governance.md "Signed webhooks"). */

/** The events an endpoint may subscribe to; `webhook.test` is sent only by the test action. */
export const WEBHOOK_EVENTS = [
  'collection.changed',
  'collection.drifted',
  'release.verdict_changed',
  'policy.changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
export const TEST_EVENT = 'webhook.test';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'abandoned';

/** An endpoint as every answer shows it: never its secret. */
export interface WebhookView {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookInput {
  url: string;
  events: WebhookEventType[];
  description?: string;
}

export interface WebhookPatch {
  url?: string;
  events?: WebhookEventType[];
  description?: string;
  enabled?: boolean;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

/** A row of `workspace_events`: what a delivery's body is made of. */
export interface WorkspaceEvent {
  id: string;
  workspaceId: string;
  type: string;
  data: unknown;
  createdAt: string;
}

/** The exact bytes POSTed for an event; stored with the delivery so a retry sends them again. */
export function deliveryBody(event: WorkspaceEvent): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    workspaceId: event.workspaceId,
    data: event.data,
  });
}
