/**
 * Builds the collections-service express app from its dependencies; no env,
 * no globals, so tests and the standalone launcher wire it as they need.
 */
import type { Express } from 'express';
import type { Sequelize } from 'sequelize';
import {
  createServiceApp,
  errorHandler,
  failingChecks,
  healthRouter,
  notFoundHandler,
  requireAdmin,
  requirePrincipal,
  type EventLoopShedding,
  type Logger,
  type ReadinessCheck,
  type PrincipalVerifier,
  type ServiceMetrics,
} from '@skills/common';
import { CatalogAdminService } from './domain/catalog-admin.service';
import { InvitationService } from './domain/invitation.service';
import { CollectionPinsService } from './domain/collection-pins.service';
import { PersonalCollectionService } from './domain/personal-collection.service';
import { PolicyService } from './domain/policy.service';
import { PrivateSkillService } from './domain/private-skill.service';
import { PublicSkillService } from './domain/public-skill.service';
import { PublisherService } from './domain/publisher.service';
import { ReleaseService } from './domain/release.service';
import { DEFAULT_REPORTS_PER_ACCOUNT_PER_DAY } from './domain/report';
import { ReportService } from './domain/report.service';
import { SkillChangesService } from './domain/skill-changes.service';
import { TeamCollectionService } from './domain/team-collection.service';
import { VerdictService } from './domain/verdict.service';
import { WorkspaceAdminService } from './domain/workspace-admin.service';
import { WorkspaceMembersService } from './domain/workspace-members.service';
import { WorkspaceService } from './domain/workspace.service';
import { adminReleasesRoutes } from './http/admin-releases.routes';
import { adminSkillsRoutes } from './http/admin-skills.routes';
import { adminWorkspacesRoutes } from './http/admin-workspaces.routes';
import { invitationsRoutes } from './http/invitations.routes';
import { itemsReaderRoutes } from './http/items-reader.routes';
import { collectionPinsRoutes } from './http/collection-pins.routes';
import { meCollectionsRoutes } from './http/me-collections.routes';
import { policyRoutes } from './http/policy.routes';
import { privateSkillsRoutes } from './http/private-skills.routes';
import { publicSkillRoutes } from './http/public-skill.routes';
import { releasesRoutes } from './http/releases.routes';
import { reportsRoutes } from './http/reports.routes';
import { skillChangesRoutes } from './http/skill-changes.routes';
import { workspaceCollectionsRoutes } from './http/workspace-collections.routes';
import { workspaceMembersRoutes } from './http/workspace-members.routes';
import { workspacesRoutes } from './http/workspaces.routes';
import { SequelizeStore } from './store/repositories';
import { webhooksRoutes } from './http/webhooks.routes';
import {
  DEFAULT_DNS_TIMEOUT_MS,
  SqlWebhookRepository,
  WebhookService,
  dnsResolver,
  type HostResolver,
  type TargetPolicy,
} from './webhooks';

export interface CollectionsAppDeps {
  sequelize: Sequelize;
  /** verifies the gateway's signed principal header */
  verifier: PrincipalVerifier;
  logger: Logger;
  /** when given, requests are measured and GET /metrics serves them */
  metrics?: ServiceMetrics;
  /** when given, requests are shed while the event loop is late */
  shedding?: EventLoopShedding;
  /** opens GET /internal/v1/items (the reindex's read-only credential); the route is absent without it */
  itemsReaderToken?: string;
  /** reports one account may file in any 24 hours (REPORTS_PER_ACCOUNT_PER_DAY); 20 when absent */
  reportsPerAccountPerDay?: number;
  /** where webhooks may point (WEBHOOK_ALLOW_PRIVATE_TARGETS); public https targets only when absent */
  webhookTargets?: TargetPolicy;
  /** how webhook hosts are resolved at registration; DNS through c-ares with a bound when absent (webhooks/host-resolver.ts) */
  webhookResolver?: HostResolver;
}

export function createCollectionsApp(deps: CollectionsAppDeps): Express {
  const store = new SequelizeStore(deps.sequelize, deps.logger);
  const app = createServiceApp({ logger: deps.logger, metrics: deps.metrics, shedding: deps.shedding });
  const database: ReadinessCheck = { name: 'database', health: () => store.ping().then(() => ({ ok: true })) };
  app.use(healthRouter({ failing: () => failingChecks([database], deps.logger), nameFailing: true }));
  // Before the principal check, and on a path it does not cover: this route has its own credential.
  if (deps.itemsReaderToken) app.use(itemsReaderRoutes(new CatalogAdminService(store), deps.itemsReaderToken));

  // Nothing below answers without a principal the gateway signed for this request.
  // the compiled workspace policy is asked for on behalf of an account (docs/governance.md)
  app.use(['/api/v1', '/admin/v1', '/internal/v1/workspaces'], requirePrincipal(deps.verifier, deps.logger));
  app.use('/admin/v1', requireAdmin());

  app.use(meCollectionsRoutes(new PersonalCollectionService(store)));
  app.use(privateSkillsRoutes(new PrivateSkillService(store)));
  const members = new WorkspaceMembersService(store);
  app.use(workspacesRoutes(new WorkspaceService(store)));
  app.use(workspaceCollectionsRoutes(new TeamCollectionService(store)));
  app.use(collectionPinsRoutes(new CollectionPinsService(store)));
  app.use(policyRoutes(new PolicyService(store)));
  app.use(workspaceMembersRoutes(members));
  const webhookTargets = {
    policy: deps.webhookTargets ?? { allowPrivate: false },
    resolver: deps.webhookResolver ?? dnsResolver({ timeoutMs: DEFAULT_DNS_TIMEOUT_MS }),
  };
  app.use(webhooksRoutes(new WebhookService(store, new SqlWebhookRepository(deps.sequelize), webhookTargets)));
  app.use(invitationsRoutes(new InvitationService(store)));
  // the feed's fixed path first: `/api/v1/skills/:slug` would take "changes" as a slug
  app.use(skillChangesRoutes(new SkillChangesService(store)));
  const skills = new PublicSkillService(store);
  const releases = new ReleaseService(store);
  const verdicts = new VerdictService(store);
  app.use(publicSkillRoutes(skills));
  app.use(releasesRoutes({ skills, releases, verdicts }));
  app.use(
    reportsRoutes(
      new ReportService(store, {
        perAccountPerDay: deps.reportsPerAccountPerDay ?? DEFAULT_REPORTS_PER_ACCOUNT_PER_DAY,
      }),
    ),
  );
  app.use(adminSkillsRoutes(new CatalogAdminService(store)));
  app.use(adminReleasesRoutes({ releases, verdicts, publishers: new PublisherService(store) }));
  app.use(adminWorkspacesRoutes(new WorkspaceAdminService(store), members));

  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}
