/**
 * Rules of webhook endpoints: owners and admins of the workspace manage them
 * (403 for members and viewers, 404 for an unknown workspace), targets pass
 * the target guard, a workspace holds at most MAX_WEBHOOKS_PER_WORKSPACE,
 * an endpoint is sent at most WEBHOOK_TESTS_PER_MINUTE tests, and the secret
 * is made here and shown once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ConflictError, NotAllowedError, NotFoundError, isUuid, type PageRequest } from '@skills/common';
import { mayGovern } from '@skills/common/workspace-roles';
import { MAX_WEBHOOKS_PER_WORKSPACE, WEBHOOK_TESTS_PER_MINUTE, assertRoomIn } from '../domain/limits';
import type { CollectionsStore } from '../domain/ports';
import { workspaceRole } from '../domain/team-scope';
import type { HostResolver } from './host-resolver';
import { assertPublicTarget, type TargetPolicy } from './target-guard';
import {
  TEST_EVENT,
  deliveryBody,
  type DeliveryView,
  type WebhookInput,
  type WebhookPatch,
  type WebhookView,
} from './webhook.model';
import type { SqlWebhookRepository } from './webhook.repository';

/** `whsec_` and 32 random bytes: the HMAC key of an endpoint's signatures. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

const MINUTE_MS = 60_000;

/** Where endpoints may point, and how their hosts are resolved to check it. */
export interface WebhookTargets {
  policy: TargetPolicy;
  resolver: HostResolver;
}

export class WebhookService {
  constructor(
    private readonly store: CollectionsStore,
    private readonly webhooks: SqlWebhookRepository,
    private readonly targets: WebhookTargets,
  ) {}

  /** The target is checked before the transaction (a DNS lookup holds no lock); the quota inside it, registrations of the workspace serialised. */
  async create(
    accountId: string,
    workspaceId: string,
    input: WebhookInput,
  ): Promise<{ webhook: WebhookView; secret: string }> {
    await this.assertManager(accountId, workspaceId);
    await assertPublicTarget(input.url, this.targets.policy, this.targets.resolver);
    const secret = newSecret();
    const webhook = await this.webhooks.transaction(async (webhooks) => {
      await webhooks.lockWorkspace(workspaceId);
      if ((await webhooks.count(workspaceId)) >= MAX_WEBHOOKS_PER_WORKSPACE) {
        throw new ConflictError('quota.webhooksPerWorkspace', { limit: MAX_WEBHOOKS_PER_WORKSPACE });
      }
      return webhooks.insert(randomUUID(), workspaceId, {
        url: input.url,
        events: [...new Set(input.events)],
        description: input.description ?? '',
        secret,
      });
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
    if (patch.url !== undefined) await assertPublicTarget(patch.url, this.targets.policy, this.targets.resolver);
    const events = patch.events && [...new Set(patch.events)];
    return this.found(await this.webhooks.update(workspaceId, id, { ...patch, ...(events ? { events } : {}) }));
  }

  async delete(accountId: string, workspaceId: string, id: string): Promise<void> {
    await this.assertManager(accountId, workspaceId);
    if (!(await this.webhooks.delete(workspaceId, this.idOf(id)))) throw new NotFoundError('webhook.notFound');
  }

  async deliveries(
    accountId: string,
    workspaceId: string,
    id: string,
    page: PageRequest,
  ): Promise<{ deliveries: DeliveryView[]; total: number }> {
    const webhook = await this.get(accountId, workspaceId, id);
    return this.webhooks.deliveries(webhook.id, page);
  }

  /**
   * Queues a `webhook.test` delivery, sent like any other (signed, retried,
   * logged); 429 with the wait past WEBHOOK_TESTS_PER_MINUTE for this
   * endpoint. Counted in the database under the endpoint's row lock, so
   * replicas agree and two tests racing for the last slot are serialised.
   */
  async test(accountId: string, workspaceId: string, id: string): Promise<{ eventId: string }> {
    await this.assertManager(accountId, workspaceId);
    const webhookId = this.idOf(id);
    return this.webhooks.transaction(async (webhooks) => {
      if (!(await webhooks.lockEndpoint(workspaceId, webhookId))) throw new NotFoundError('webhook.notFound');
      const limit = WEBHOOK_TESTS_PER_MINUTE;
      assertRoomIn(await webhooks.windowOf(webhookId, TEST_EVENT, MINUTE_MS, limit), limit, 'webhook.testThrottled');
      const event = {
        id: randomUUID(),
        workspaceId,
        type: TEST_EVENT,
        data: { webhookId },
        createdAt: new Date().toISOString(),
      };
      await webhooks.enqueue({
        id: randomUUID(),
        webhookId,
        eventId: event.id,
        eventType: TEST_EVENT,
        body: deliveryBody(event),
      });
      return { eventId: event.id };
    });
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
