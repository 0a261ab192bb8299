/**
 * Builds what signing in to the console needs, as one piece: sessions and
 * their gate, password sign-in and sign-up, one-time links, OpenID Connect,
 * mail and the sign-in throttle. The routes that serve them are mounted by
 * http/sign-in/profile.routes.ts; the names say "profile", the console's area they serve.
 */
import type { Sequelize } from 'sequelize';
import type { Logger } from '@skills/common';
import type { AccountRepository } from './domain/accounts/account';
import type { ApiKeyService } from './domain/keys/api-key.service';
import type { AuditLog } from './domain/audit/audit';
import type { AuthFailureAudit } from './domain/audit/auth-failure-audit';
import { SessionService } from './domain/sessions/session.service';
import { CookieJar } from './http/sessions/session-cookie';
import { SessionGate } from './http/sessions/session-gate';
import type { SessionBudget } from './domain/limits/session-budget';
import { SequelizeSessionRepository } from './store/session.repository';
import type { Site } from './domain/site';
import { CredentialRepository } from './store/credential.repository';
import { LinkRepository } from './store/link.repository';
import { SmtpMailer, type Mailer } from './mail/mailer';
import { OidcService, type OidcSettings } from './domain/oidc/oidc.service';
import { Argon2PasswordHasher, BoundedPasswordHasher, type HashingLimits } from './domain/sign-in/password-hasher';
import type { AuthFailureGuard } from './domain/limits/auth-failure-guard';
import type { ThrottleStore } from './domain/limits/throttle-store';
import { SignInThrottle, type ThrottleLimits } from './domain/limits/sign-in-throttle';
import { SignInService } from './domain/sign-in/sign-in.service';
import { SignUpService, type SignUpMode } from './domain/sign-in/sign-up.service';
import { LinkedIdentities } from './domain/oidc/linked-identities';
import { IdentityRepository } from './store/identity.repository';
import type { MailQuota } from './domain/limits/mail-quota';
import type { WorkspaceMembership } from './domain/workspaces/workspace-membership';

export interface ProfileDeps {
  site: Site;
  signIn: SignInService;
  signUp: SignUpService;
  /** the provider identities an account's owner lists and removes */
  identities: LinkedIdentities;
  sessions: SessionService;
  gate: SessionGate;
  cookies: CookieJar;
  keys: ApiKeyService;
  logger: Logger;
  /** the accounts, for the names of workspace members */
  accounts: AccountRepository;
  /** one-time links: also the secret of workspace invitations (domain/workspaces/workspace-invitations.ts) */
  links: LinkRepository;
  oidc?: OidcService;
  mailer?: Mailer;
  /** with `mailer`: the daily mail quotas */
  mailQuota?: MailQuota;
  /** the console's built files; none: /console answers 404 */
  consoleDir?: string;
  /** the bounded password hasher, for its counts in /metrics */
  hasher: BoundedPasswordHasher;
  credentials: CredentialRepository;
  /** every authentication event of an account is recorded there (auth-audit.ts) */
  audit: AuditLog;
  /** per-address budgets of sign-in, sign-up, link requests and OpenID Connect starts */
  throttle: SignInThrottle;
  /** who is a member of a workspace: binding a key to one needs it */
  workspaces: WorkspaceMembership;
}

export interface ProfileOptions {
  sequelize: Sequelize;
  accounts: AccountRepository;
  keys: ApiKeyService;
  site: Site;
  logger: Logger;
  signUpMode: SignUpMode;
  session: { idleMinutes: number; maxAgeHours: number };
  oidc?: OidcSettings;
  mail?: { smtpUrl: string; from: string };
  /** how many mails an address and a workspace may cause per day; applied only where mail is sent */
  mailQuota?: MailQuota;
  /** sends instead of SMTP (`mail` is then ignored): a test's own, to hold or read what is sent */
  mailer?: Mailer;
  consoleDir?: string;
  throttle?: Partial<ThrottleLimits>;
  /** where the throttle counts (Redis shared by the replicas); this process's memory when absent */
  throttleStore?: ThrottleStore;
  hashing?: HashingLimits;
  audit: AuditLog;
  /** per-address budget of failed authentications: unknown session cookies count against it */
  authFailures?: AuthFailureGuard;
  /** requests per account and window made with sessions; none: unlimited */
  sessionBudget?: SessionBudget;
  /** where failed password sign-ins are counted */
  failureAudit?: AuthFailureAudit;
  /** whether a workspace invitation is still pending (sign-in.service.ts); none: not asked */
  workspaceInvitationPending?: (invitationId: string, requestId: string) => Promise<boolean>;
  /** who is a member of a workspace: binding a key to one needs it */
  workspaces: WorkspaceMembership;
  now?: () => number;
}

export function createProfile(options: ProfileOptions): ProfileDeps {
  const { sequelize, site, logger, now } = options;
  const sessions = new SessionService({
    store: new SequelizeSessionRepository(sequelize),
    policy: { idleMs: options.session.idleMinutes * 60_000, absoluteMs: options.session.maxAgeHours * 3_600_000 },
    logger,
    now,
  });
  const cookies = new CookieJar(site);
  const credentials = new CredentialRepository(sequelize);
  const links = new LinkRepository(sequelize);
  const hasher = new BoundedPasswordHasher(new Argon2PasswordHasher(), options.hashing);
  const mailer = options.mailer ?? (options.mail ? new SmtpMailer(options.mail.smtpUrl, options.mail.from) : undefined);
  // Quotas count mails: where none is sent (links in the log), there is nothing to count.
  const mailQuota = mailer ? options.mailQuota : undefined;
  const throttle = new SignInThrottle(options.throttle, { now, store: options.throttleStore });
  const signIn = new SignInService({
    accounts: options.accounts,
    credentials,
    links,
    hasher,
    throttle,
    sessions,
    audit: options.audit,
    failures: options.failureAudit,
    forgetKeys: (ids) => options.keys.forget(ids),
    mailQuota,
    now,
  });
  const signUpMode = options.signUpMode;
  const signUp = new SignUpService({
    credentials,
    links,
    hasher,
    throttle,
    signIn,
    signUpMode,
    workspaceInvitationPending: options.workspaceInvitationPending,
    mailQuota,
    now,
  });
  const oidc = options.oidc
    ? new OidcService({
        settings: options.oidc,
        links,
        credentials,
        signIn,
        signUpMode,
        sessions,
        audit: options.audit,
        site,
        logger,
        now,
      })
    : undefined;
  const gate = new SessionGate({
    sessions,
    cookies,
    site,
    failures: options.authFailures,
    budget: options.sessionBudget,
  });
  return {
    site,
    signIn,
    signUp,
    identities: new LinkedIdentities(new IdentityRepository(sequelize)),
    sessions,
    gate,
    cookies,
    keys: options.keys,
    logger,
    accounts: options.accounts,
    links,
    oidc,
    mailer,
    mailQuota,
    consoleDir: options.consoleDir,
    hasher,
    credentials,
    audit: options.audit,
    throttle,
    workspaces: options.workspaces,
  };
}
