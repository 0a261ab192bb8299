/**
 * Rules of webhook endpoints: owners and admins of the workspace manage them
 * (403 for members and viewers, 404 for an unknown workspace), targets pass
 * the target guard, and the secret is made here and shown once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { NotAllowedError, NotFoundError, isUuid, type PageRequest } from '@skills/common';
import { mayGovern } from '@skills/common/workspace-roles';
import type { CollectionsStore } from '../domain/ports';
import { workspaceRole } from '../domain/team-scope';
import { assertPublicTarget, type TargetPolicy } from './target-guard';
import { TEST_EVENT, deliveryBody, type DeliveryView, type WebhookInput, type WebhookPatch, type WebhookView } from './webhook.model';
import type { SqlWebhookRepository } from './webhook.repository';

/** `whsec_` and 32 random bytes: the HMAC key of an endpoint's signatures. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export class WebhookService {
  constructor(
    private readonly store: CollectionsStore,
    private readonly webhooks: SqlWebhookRepository,
    private readonly targets: TargetPolicy,
  ) {}

  async create(accountId: string, workspaceId: string, input: WebhookInput): Promise<{ webhook: WebhookView; secret: string }> {
    await this.assertManager(accountId, workspaceId);
    await assertPublicTarget(input.url, this.targets);
    const secret = newSecret();
    const webhook = await this.webhooks.insert(randomUUID(), workspaceId, {
      url: input.url,
      events: [...new Set(input.events)],
      description: input.description ?? '',
      secret,
    });
    return { webhook, secret };
  }

  async list(accountId: string, workspaceId: string): Promise<WebhookView[]> {
    await this.assertManager(accountId, workspaceId);
    return this.webhooks.list(workspaceId);
  }

  async get(accountId: string, workspaceId: string, id: string): Promise<WebhookView> {
    await this.assertManager(accountId, workspaceId);
    return this.found(await this.webhooks.find(workspaceId, this.idOf(id)));
  }

  async update(accountId: string, workspaceId: string, id: string, patch: WebhookPatch): Promise<WebhookView> {
    await this.assertManager(accountId, workspaceId);
    this.found(await this.webhooks.find(workspaceId, this.idOf(id)));
    if (patch.url !== undefined) await assertPublicTarget(patch.url, this.targets);
    const events = patch.events && [...new Set(patch.events)];
    return this.found(await this.webhooks.update(workspaceId, id, { ...patch, ...(events ? { events } : {}) }));
  }

  async delete(accountId: string, workspaceId: string, id: string): Promise<void> {
    await this.assertManager(accountId, workspaceId);
    if (!(await this.webhooks.delete(workspaceId, this.idOf(id)))) throw new NotFoundError('webhook.notFound');
  }

  async deliveries(accountId: string, workspaceId: string, id: string, page: PageRequest): Promise<{ deliveries: DeliveryView[]; total: number }> {
    const webhook = await this.get(accountId, workspaceId, id);
    return this.webhooks.deliveries(webhook.id, page);
  }

  /** Queues a `webhook.test` delivery, sent like any other (signed, retried, logged). */
  async test(accountId: string, workspaceId: string, id: string): Promise<{ eventId: string }> {
    const webhook = await this.get(accountId, workspaceId, id);
    const event = { id: randomUUID(), workspaceId, type: TEST_EVENT, data: { webhookId: webhook.id }, createdAt: new Date().toISOString() };
    await this.webhooks.enqueue({ id: randomUUID(), webhookId: webhook.id, eventId: event.id, eventType: TEST_EVENT, body: deliveryBody(event) });
    return { eventId: event.id };
  }

  private async assertManager(accountId: string, workspaceId: string): Promise<void> {
    const role = await workspaceRole(this.store.repos, accountId, workspaceId);
    if (role === null) throw new NotAllowedError('workspace.noAccess');
    if (!mayGovern(role)) throw new NotAllowedError('workspace.roleTooLow');
  }

  private idOf(id: string): string {
    if (!isUuid(id)) throw new NotFoundError('webhook.notFound');
    return id;
  }

  private found<T>(value: T | null): T {
    if (value === null) throw new NotFoundError('webhook.notFound');
    return value;
  }
}
