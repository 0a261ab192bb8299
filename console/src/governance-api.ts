/**
 * The governance operations of a workspace as the console calls them
 * (docs/governance.md): policy, pin updates, the lockfile's address and
 * webhooks with their deliveries. The shapes are the typed client's.
 */
import { call } from './api';
import type { Collection } from './data-api';
import type {
  CreatedWebhook,
  CreateWebhookInput,
  DeliveryPage,
  DriftCause,
  PinsUpdate,
  PolicyAnswer,
  Webhook,
  WebhookDelivery,
  WebhookEvent,
  WebhookPatch,
  WorkspacePolicy,
} from '../../client/src/governance-types';

export type { CreatedWebhook, DriftCause, PinsUpdate, PolicyAnswer, Webhook, WebhookDelivery, WebhookEvent, WorkspacePolicy };

/** Every event an endpoint may subscribe to, with what it means to a person. */
export const WEBHOOK_EVENTS: ReadonlyArray<{ event: WebhookEvent; label: string }> = [
  { event: 'collection.changed', label: 'A team collection is created, changed, updated or deleted' },
  { event: 'collection.drifted', label: 'An entry of a collection drifts (newer release, yank, verdict, block, removal)' },
  { event: 'release.verdict_changed', label: 'The verdict of a pinned release changes' },
  { event: 'policy.changed', label: 'The workspace policy changes' },
];

const seg = encodeURIComponent;
const ws = (id: string) => `/api/v1/workspaces/${seg(id)}`;
const hook = (id: string, webhookId: string) => `${ws(id)}/webhooks/${seg(webhookId)}`;

export const governance = {
  policy: (id: string) => call<PolicyAnswer>('GET', `${ws(id)}/policy`),
  setPolicy: (id: string, policy: WorkspacePolicy) => call<PolicyAnswer>('PUT', `${ws(id)}/policy`, policy),
  /** `slugs`: only those entries (what a preview listed); absent: every entry */
  updatePins: (id: string, collectionId: string, dryRun: boolean, slugs?: string[]) =>
    call<PinsUpdate<Collection>>('POST', `${ws(id)}/collections/${seg(collectionId)}/pins:update`, { dryRun, ...(slugs ? { slugs } : {}) }),
  /** a link's address: the browser downloads it with the session cookie (Content-Disposition: attachment) */
  lockfileUrl: (id: string, collectionId: string) => `${ws(id)}/collections/${seg(collectionId)}/lockfile`,

  webhooks: (id: string) => call<{ webhooks: Webhook[] }>('GET', `${ws(id)}/webhooks`),
  createWebhook: (id: string, input: CreateWebhookInput) => call<CreatedWebhook>('POST', `${ws(id)}/webhooks`, input),
  updateWebhook: (id: string, webhookId: string, patch: WebhookPatch) => call<{ webhook: Webhook }>('PATCH', hook(id, webhookId), patch),
  deleteWebhook: (id: string, webhookId: string) => call<unknown>('DELETE', hook(id, webhookId)),
  testWebhook: (id: string, webhookId: string) => call<unknown>('POST', `${hook(id, webhookId)}/test`),
  deliveries: (id: string, webhookId: string, page: number) => call<DeliveryPage>('GET', `${hook(id, webhookId)}/deliveries?limit=10&page=${page}`),
};
