/**
 * The methods of docs/governance.md, which SkillsClient inherits: the
 * workspace policy, pin updates, the lockfile and signed webhooks. Kept
 * apart from skills-client.ts only to keep each file small.
 */
import { ClientBase } from './client-base';
import type {
  CreatedWebhook,
  CreateWebhookInput,
  DeliveryPage,
  Lockfile,
  LockfileExport,
  PinsUpdate,
  PinsUpdateInput,
  PolicyAnswer,
  Webhook,
  WebhookPatch,
  WorkspacePolicyInput,
} from './governance-types';
import type { PageParams, TeamCollection } from './types';

export abstract class GovernanceMethods extends ClientBase {
  /** The workspace policy (any member), with its defaults while none was set. */
  getWorkspacePolicy(workspaceId: string): Promise<PolicyAnswer> {
    return this.call<PolicyAnswer>('getWorkspacePolicy', { params: { id: workspaceId } });
  }

  /** Replaces the policy (owners and admins): an absent field takes its default. Every entry is re-evaluated at once. */
  setWorkspacePolicy(workspaceId: string, policy: WorkspacePolicyInput): Promise<PolicyAnswer> {
    return this.call<PolicyAnswer>('setWorkspacePolicy', { params: { id: workspaceId }, body: policy });
  }

  /**
   * Moves pins to the latest allowed, not yanked release (all entries, or
   * `slugs`); `dryRun: true` only lists the changes. Viewers: ApiError 403.
   */
  updateCollectionPins(
    workspaceId: string,
    collectionId: string,
    input: PinsUpdateInput = {},
  ): Promise<PinsUpdate<TeamCollection>> {
    return this.call<PinsUpdate<TeamCollection>>('updateCollectionPins', {
      params: { id: workspaceId, collectionId },
      body: input,
    });
  }

  /**
   * The collection's lockfile: its exact bytes (verify or store those, not a
   * re-serialisation), parsed, and its ETag. With `ifNoneMatch` an unchanged
   * lockfile answers undefined (304).
   */
  async getCollectionLockfile(
    workspaceId: string,
    collectionId: string,
    options: { ifNoneMatch?: string } = {},
  ): Promise<LockfileExport | undefined> {
    const headers = options.ifNoneMatch ? { 'If-None-Match': options.ifNoneMatch } : undefined;
    const answer = await this.http.sendRaw('getCollectionLockfile', {
      params: { id: workspaceId, collectionId },
      headers,
    });
    if (!answer) return undefined;
    return { text: answer.text, lockfile: JSON.parse(answer.text) as Lockfile, etag: answer.headers.get('etag') ?? '' };
  }

  /**
   * The lockfile's address, for a link: a browser signed in to the console
   * downloads it with its session cookie (the answer is an attachment).
   */
  collectionLockfileUrl(workspaceId: string, collectionId: string): string {
    return this.http.urlOf('getCollectionLockfile', { id: workspaceId, collectionId });
  }

  /** The workspace's webhook endpoints (owners and admins), never their secrets. */
  async listWebhooks(workspaceId: string): Promise<Webhook[]> {
    return (await this.call<{ webhooks: Webhook[] }>('listWebhooks', { params: { id: workspaceId } })).webhooks;
  }

  /** A new endpoint; keep `secret` (`whsec_…`) to check signatures, it is not shown again. */
  createWebhook(workspaceId: string, input: CreateWebhookInput): Promise<CreatedWebhook> {
    return this.call<CreatedWebhook>('createWebhook', { params: { id: workspaceId }, body: input });
  }

  async getWebhook(workspaceId: string, webhookId: string): Promise<Webhook> {
    return (await this.call<{ webhook: Webhook }>('getWebhook', { params: { id: workspaceId, webhookId } })).webhook;
  }

  /** Changes an endpoint; `enabled: true` re-enables one the service disabled and clears its reason. */
  async updateWebhook(workspaceId: string, webhookId: string, patch: WebhookPatch): Promise<Webhook> {
    return (
      await this.call<{ webhook: Webhook }>('updateWebhook', { params: { id: workspaceId, webhookId }, body: patch })
    ).webhook;
  }

  async deleteWebhook(workspaceId: string, webhookId: string): Promise<void> {
    await this.call<unknown>('deleteWebhook', { params: { id: workspaceId, webhookId } });
  }

  /** One page of an endpoint's delivery log, newest first. */
  listWebhookDeliveriesPage(workspaceId: string, webhookId: string, params: PageParams = {}): Promise<DeliveryPage> {
    return this.call<DeliveryPage>('listWebhookDeliveries', {
      params: { id: workspaceId, webhookId },
      query: { ...params },
    });
  }

  /** Queues a `webhook.test` delivery (202); it shows in the delivery log under the event id answered. */
  testWebhook(workspaceId: string, webhookId: string): Promise<{ eventId: string }> {
    return this.call<{ eventId: string }>('testWebhook', { params: { id: workspaceId, webhookId } });
  }
}
