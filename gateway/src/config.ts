import { join } from 'node:path';
import Joi from 'joi';
import {
  DEFAULT_HTTP_TIMEOUTS,
  env,
  loadConfig,
  serviceConfigOf,
  serviceEnv,
  type ServiceConfig,
  type ServiceEnv,
} from '@skills/common';
import type { SignUpMode } from './domain/sign-in/sign-up.service';
import { LONGEST_KEY_DAYS } from './domain/keys/api-key.service';
import { DEFAULT_ADMISSION, type AdmissionLimits } from './http/limits/admission';
import type { HashingLimits } from './domain/sign-in/password-hasher';
import { DEFAULT_THROTTLE, type ThrottleLimits } from './domain/limits/sign-in-throttle';
import { DEFAULT_MAIL_QUOTA, type MailQuotaLimits } from './domain/limits/mail-quota';

/** The defaults of the variables behind accounts, sessions, keys and the console (the test harness builds its config from them too). */
export const PROFILE_DEFAULTS = {
  sessionIdleMinutes: 12 * 60,
  sessionMaxAgeHours: 7 * 24,
  maxActiveKeys: 20,
  /** a key a stolen session mints must end some day: a year unless the operator says otherwise */
  maxKeyLifetimeDays: 365,
  linkPurgeIntervalMs: 10 * 60_000,
  /** the console's built app, beside the gateway package in this repository */
  consoleDir: join(__dirname, '..', '..', 'console', 'dist'),
} as const;

/**
 * The fields loadGatewayConfig fills from its defaults when the environment is silent, for a config built by hand
 * (the test harnesses): spread it first, then what the test sets.
 */
export const GATEWAY_CONFIG_DEFAULTS = {
  admission: DEFAULT_ADMISSION,
  session: { idleMinutes: PROFILE_DEFAULTS.sessionIdleMinutes, maxAgeHours: PROFILE_DEFAULTS.sessionMaxAgeHours },
  keyPolicy: { maxActiveKeys: PROFILE_DEFAULTS.maxActiveKeys, maxLifetimeDays: PROFILE_DEFAULTS.maxKeyLifetimeDays },
  mailQuota: DEFAULT_MAIL_QUOTA,
  consoleDir: PROFILE_DEFAULTS.consoleDir,
  linkPurgeIntervalMs: PROFILE_DEFAULTS.linkPurgeIntervalMs,
} as const satisfies Partial<GatewayConfig>;

/**
 * The shared part (ServiceConfig: `host` is where both listeners bind,
 * `redisUrl` shares the rate-limit and failure-budget windows, in memory per
 * replica without it) plus the gateway's own.
 */
export interface GatewayConfig extends ServiceConfig {
  adminToken: string;
  /** PKCS#8 PEM file of the Ed25519 key principals are signed with (docs/security.md "Principal keys") */
  principalSigningKeyFile: string;
  catalogUrl: string;
  collectionsUrl: string;
  /** how long a resolved key is trusted before re-reading it (bounds cross-replica revocation) */
  keyCacheTtlMs: number;
  /** public search answers reused this long at the gateway (0 = off), and how many are kept */
  answerCache: { ttlMs: number; maxEntries: number };
  /** headers and body timeout of an upstream call */
  upstreamTimeoutMs: number;
  /** requests in flight per service and process, reads and writes apart, as many waiting; the rest are shed with 503 (admission.ts) */
  admission: AdmissionLimits;
  /** requests per sliding minute per account (all its keys), by plan; 0 turns the limit off for that plan */
  rateLimits: { pro: number; team: number };
  /** a client must send all its headers within this time */
  headersTimeoutMs?: number;
  /** a client must send its whole request (body included) within this time */
  requestTimeoutMs?: number;
  /** where browsers reach the gateway: links, the OIDC redirect, the Origin check, Secure cookies; its own address when absent */
  publicUrl?: string;
  /** who may create an account from the console; `open` on loopback, else `invite`, when absent */
  signUpMode?: SignUpMode;
  session: { idleMinutes: number; maxAgeHours: number };
  /** per account; null lifetime: keys may never expire */
  keyPolicy: { maxActiveKeys: number; maxLifetimeDays: number | null };
  oidc?: { issuer: string; clientId: string; clientSecret: string; name: string };
  /** password reset and workspace invitations by mail */
  mail?: { smtpUrl: string; from: string };
  /** mails per address and invitation mails per workspace, per sliding day */
  mailQuota: MailQuotaLimits;
  /** the console's built files */
  consoleDir: string;
  /** the monitoring listener (/metrics, deep /readyz): never routed from the Ingress; 0 picks a free port */
  metricsPort: number;
  /** Strict-Transport-Security max-age; 0 sends none */
  hstsMaxAgeSeconds: number;
  /** express's `trust proxy`: false (the socket's peer is the client), a hop count, or the proxies' addresses */
  trustProxy: TrustProxy;
  /** sign-in, sign-up and link-request limits (sign-in-throttle.ts), in Redis with `redisUrl`; the defaults when absent */
  signInThrottle?: Partial<ThrottleLimits>;
  /** password hashes at once and waiting, per process (password-hasher.ts); the defaults when absent */
  hashing?: HashingLimits;
  /** failed authentications allowed per client address and minute; 0 turns the budget off */
  authFailuresPerMinute: number;
  /** requests per account and minute made with console sessions, any plan (domain/limits/session-budget.ts); 0 or absent: unlimited */
  sessionRequestsPerMinute?: number;
  /** audit records are deleted once this old, checked every `pruneIntervalMs` (0: never); failures are written every `failureFlushMs` */
  audit: { retentionDays: number; pruneIntervalMs: number; failureFlushMs: number };
  /** one-time links and OpenID Connect flows past their time are deleted every this often (0: never) */
  linkPurgeIntervalMs: number;
}

/** What express's `trust proxy` accepts, minus `true` (trusting every X-Forwarded-For is spoofable). */
export type TrustProxy = false | number | string[];

interface GatewayEnv extends ServiceEnv {
  ADMIN_TOKEN: string;
  PRINCIPAL_SIGNING_KEY_FILE: string;
  CATALOG_URL: string;
  COLLECTIONS_URL: string;
  KEY_CACHE_TTL_MS: number;
  UPSTREAM_TIMEOUT_MS: number;
  ADMISSION_READS: number;
  ADMISSION_WRITES: number;
  ANSWER_CACHE_TTL_MS: number;
  ANSWER_CACHE_ENTRIES: number;
  RATE_LIMIT_PRO_PER_MINUTE: number;
  RATE_LIMIT_TEAM_PER_MINUTE: number;
  HEADERS_TIMEOUT_MS: number;
  REQUEST_TIMEOUT_MS: number;
  PUBLIC_URL?: string;
  SIGNUP_MODE?: SignUpMode;
  SESSION_IDLE_MINUTES: number;
  SESSION_MAX_AGE_HOURS: number;
  API_KEYS_MAX_ACTIVE: number;
  API_KEYS_MAX_LIFETIME_DAYS: number;
  OIDC_ISSUER?: string;
  OIDC_CLIENT_ID?: string;
  OIDC_CLIENT_SECRET?: string;
  OIDC_NAME: string;
  SMTP_URL?: string;
  MAIL_FROM?: string;
  CONSOLE_DIR: string;
  METRICS_PORT: number;
  HSTS_MAX_AGE_SECONDS: number;
  TRUST_PROXY: string;
  AUTH_FAILURES_PER_MINUTE: number;
  SESSION_REQUESTS_PER_MINUTE: number;
  SIGN_IN_ATTEMPTS_PER_ADDRESS: number;
  SIGN_UPS_PER_ADDRESS: number;
  LINK_REQUESTS_PER_ADDRESS: number;
  LINK_REQUESTS_PER_EMAIL: number;
  MAIL_QUOTA_PER_ADDRESS: number;
  MAIL_QUOTA_PER_RECIPIENT: number;
  MAIL_QUOTA_PER_WORKSPACE: number;
  OIDC_STARTS_PER_ADDRESS: number;
  PASSWORD_HASH_CONCURRENCY: number;
  PASSWORD_HASH_QUEUE: number;
  AUDIT_RETENTION_DAYS: number;
  AUDIT_PRUNE_INTERVAL_MS: number;
  AUDIT_FAILURE_FLUSH_MS: number;
  LINK_PURGE_INTERVAL_MS: number;
}

/** Names express knows for address ranges, e.g. `loopback` for 127.0.0.1/8 and ::1. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];
const ipOrCidr = Joi.string().ip({ cidr: 'optional' });

/** TRUST_PROXY: `false`, a hop count, or a comma-separated list of addresses, CIDR ranges and range names. */
const trustProxy = Joi.string()
  .trim()
  .custom((value: string, helpers) => {
    if (value === 'false' || /^\d{1,2}$/.test(value)) return value;
    const entries = value.split(',').map((e) => e.trim());
    const bad = entries.find((e) => !PROXY_RANGES.includes(e) && ipOrCidr.validate(e).error !== undefined);
    return bad === undefined ? value : helpers.error('trustProxy.entry', { entry: bad });
  })
  .default('false')
  .messages({
    'trustProxy.entry':
      '{#label} must be false, a hop count, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal ("{#entry}" is none of them)',
  });

function parseTrustProxy(value: string): TrustProxy {
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((e) => e.trim());
}

const httpUrl = () => Joi.string().uri({ scheme: ['http', 'https'] });

/** 127.0.0.0/8, ::1 and localhost: only this machine can reach a listener bound there. */
const loopbackHost = Joi.string().pattern(/^(localhost|127(\.\d{1,3}){3}|::1)$/);

/*
 * Off loopback, browsers reach the gateway at an address it cannot guess:
 * without PUBLIC_URL its cookies lose Secure and __Host-, the Origin check
 * allows only loopback, links point to 127.0.0.1 and sign-up is open. So a
 * gateway bound elsewhere refuses to start rather than run with those defaults.
 */
const publicUrl = httpUrl().when('HOST', {
  is: loopbackHost,
  otherwise: Joi.required().messages({
    'any.required':
      '{#label} is required when HOST is not a loopback address: set it to the address browsers reach the gateway at (e.g. https://skills.example.com)',
  }),
});

/** The variables this process reads (docs/configuration.md and docs/deploy.md describe each: a test checks). */
export const GATEWAY_ENV = serviceEnv({ port: 8080 }).append<GatewayEnv>({
  ADMIN_TOKEN: env.secret(),
  PRINCIPAL_SIGNING_KEY_FILE: env.keyFile(),
  CATALOG_URL: httpUrl().default('http://127.0.0.1:8081'),
  COLLECTIONS_URL: httpUrl().default('http://127.0.0.1:8082'),
  // At most 1 s: docs/api.md promises a revoke reaches every replica within 1 s.
  KEY_CACHE_TTL_MS: Joi.number().integer().min(0).max(1_000).default(1_000),
  UPSTREAM_TIMEOUT_MS: Joi.number().integer().min(100).max(300_000).default(10_000),
  // per service and gateway process; their sum is the upstream pool's connections (docs/operations.md)
  ADMISSION_READS: Joi.number().integer().min(1).max(1_000).default(48),
  ADMISSION_WRITES: Joi.number().integer().min(1).max(1_000).default(16),
  // At most 1 s: it adds to how long a write can stay out of search answers (docs/gateway.md).
  ANSWER_CACHE_TTL_MS: Joi.number().integer().min(0).max(1_000).default(50),
  ANSWER_CACHE_ENTRIES: Joi.number().integer().min(0).max(100_000).default(1_000),
  // docs/api.md: pro 600/min, team 1,200/min; 0 turns a plan's limit off.
  RATE_LIMIT_PRO_PER_MINUTE: Joi.number().integer().min(0).default(600),
  RATE_LIMIT_TEAM_PER_MINUTE: Joi.number().integer().min(0).default(1_200),
  HEADERS_TIMEOUT_MS: Joi.number().integer().min(500).max(300_000).default(DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs),
  REQUEST_TIMEOUT_MS: Joi.number().integer().min(500).max(3_600_000).default(DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs),
  PUBLIC_URL: publicUrl,
  SIGNUP_MODE: Joi.string().valid('open', 'invite', 'closed'),
  SESSION_IDLE_MINUTES: Joi.number().integer().min(1).max(43_200).default(PROFILE_DEFAULTS.sessionIdleMinutes),
  SESSION_MAX_AGE_HOURS: Joi.number().integer().min(1).max(8_760).default(PROFILE_DEFAULTS.sessionMaxAgeHours),
  API_KEYS_MAX_ACTIVE: Joi.number().integer().min(1).max(1_000).default(PROFILE_DEFAULTS.maxActiveKeys),
  // 0: keys may also never expire
  // 0: no maximum, keys may also never expire
  API_KEYS_MAX_LIFETIME_DAYS: Joi.number()
    .integer()
    .min(0)
    .max(LONGEST_KEY_DAYS)
    .default(PROFILE_DEFAULTS.maxKeyLifetimeDays),
  OIDC_ISSUER: httpUrl(),
  OIDC_CLIENT_ID: Joi.string().max(500).when('OIDC_ISSUER', { is: Joi.exist(), then: Joi.required() }),
  OIDC_CLIENT_SECRET: Joi.string().max(500).when('OIDC_ISSUER', { is: Joi.exist(), then: Joi.required() }),
  OIDC_NAME: Joi.string().max(60).default('single sign-on'),
  SMTP_URL: Joi.string().uri({ scheme: ['smtp', 'smtps'] }),
  MAIL_FROM: Joi.string().max(254).when('SMTP_URL', { is: Joi.exist(), then: Joi.required() }),
  CONSOLE_DIR: Joi.string().default(PROFILE_DEFAULTS.consoleDir),
  // 9464: the port Prometheus exporters conventionally use
  METRICS_PORT: env.port(9464),
  // 0: no HSTS (plain HTTP); a deployment served over https sets e.g. 31536000 (a year)
  HSTS_MAX_AGE_SECONDS: Joi.number().integer().min(0).max(63_072_000).default(0),
  TRUST_PROXY: trustProxy,
  // an honest client fails a few times (a mistyped key), not dozens a minute
  AUTH_FAILURES_PER_MINUTE: Joi.number().integer().min(0).max(1_000_000).default(30),
  // a person in the console makes a few calls a second at most; scripts belong on API keys and their plan
  SESSION_REQUESTS_PER_MINUTE: Joi.number().integer().min(0).max(1_000_000).default(300),
  // per client address and 15 minutes (docs/security.md "Throttles")
  SIGN_IN_ATTEMPTS_PER_ADDRESS: Joi.number().integer().min(1).max(1_000_000).default(DEFAULT_THROTTLE.perAddress),
  SIGN_UPS_PER_ADDRESS: Joi.number().integer().min(1).max(1_000_000).default(DEFAULT_THROTTLE.signUpsPerAddress),
  // reset requests and address verifications; each reset request may mail the inbox it names
  LINK_REQUESTS_PER_ADDRESS: Joi.number().integer().min(1).max(1_000_000).default(DEFAULT_THROTTLE.linksPerAddress),
  LINK_REQUESTS_PER_EMAIL: Joi.number().integer().min(1).max(1_000_000).default(DEFAULT_THROTTLE.linksPerEmail),
  // mails per sliding day (docs/security.md "Mail quotas"); 0 turns one off
  MAIL_QUOTA_PER_ADDRESS: Joi.number().integer().min(0).max(1_000_000).default(DEFAULT_MAIL_QUOTA.perAddress),
  MAIL_QUOTA_PER_RECIPIENT: Joi.number().integer().min(0).max(1_000_000).default(DEFAULT_MAIL_QUOTA.perRecipient),
  MAIL_QUOTA_PER_WORKSPACE: Joi.number().integer().min(0).max(1_000_000).default(DEFAULT_MAIL_QUOTA.perWorkspace),
  OIDC_STARTS_PER_ADDRESS: Joi.number().integer().min(1).max(1_000_000).default(DEFAULT_THROTTLE.oidcStartsPerAddress),
  // one hash at a time fits the one CPU a gateway pod is limited to (deploy/)
  PASSWORD_HASH_CONCURRENCY: Joi.number().integer().min(1).max(64).default(1),
  PASSWORD_HASH_QUEUE: Joi.number().integer().min(0).max(10_000).default(8),
  // a quarter is what an auditor usually asks to look back on; up to ten years
  AUDIT_RETENTION_DAYS: Joi.number().integer().min(1).max(3_650).default(90),
  AUDIT_PRUNE_INTERVAL_MS: Joi.number()
    .integer()
    .max(86_400_000)
    .default(3_600_000)
    .custom((value: number, helpers) => (value === 0 || value >= 1_000 ? value : helpers.error('audit.interval')))
    .messages({ 'audit.interval': '{#label} must be 0 (pruning off) or between 1000 and 86400000' }),
  AUDIT_FAILURE_FLUSH_MS: Joi.number().integer().min(100).max(600_000).default(10_000),
  // an OpenID Connect flow lives 10 minutes: purging as often keeps at most two generations of them
  LINK_PURGE_INTERVAL_MS: Joi.number()
    .integer()
    .max(86_400_000)
    .default(PROFILE_DEFAULTS.linkPurgeIntervalMs)
    .custom((value: number, helpers) => (value === 0 || value >= 1_000 ? value : helpers.error('purge.interval')))
    .messages({ 'purge.interval': '{#label} must be 0 (purging off) or between 1000 and 86400000' }),
});

/** Validates the gateway's environment once into a frozen, typed config. */
export function loadGatewayConfig(environment: Record<string, string | undefined>): Readonly<GatewayConfig> {
  const e = loadConfig(GATEWAY_ENV, environment);
  return Object.freeze({
    ...serviceConfigOf(e),
    adminToken: e.ADMIN_TOKEN,
    principalSigningKeyFile: e.PRINCIPAL_SIGNING_KEY_FILE,
    catalogUrl: e.CATALOG_URL,
    collectionsUrl: e.COLLECTIONS_URL,
    keyCacheTtlMs: e.KEY_CACHE_TTL_MS,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    admission: { reads: e.ADMISSION_READS, writes: e.ADMISSION_WRITES },
    answerCache: { ttlMs: e.ANSWER_CACHE_TTL_MS, maxEntries: e.ANSWER_CACHE_ENTRIES },
    rateLimits: { pro: e.RATE_LIMIT_PRO_PER_MINUTE, team: e.RATE_LIMIT_TEAM_PER_MINUTE },
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    ...(e.PUBLIC_URL ? { publicUrl: e.PUBLIC_URL } : {}),
    ...(e.SIGNUP_MODE ? { signUpMode: e.SIGNUP_MODE } : {}),
    session: { idleMinutes: e.SESSION_IDLE_MINUTES, maxAgeHours: e.SESSION_MAX_AGE_HOURS },
    keyPolicy: { maxActiveKeys: e.API_KEYS_MAX_ACTIVE, maxLifetimeDays: e.API_KEYS_MAX_LIFETIME_DAYS || null },
    ...(e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
      ? {
          oidc: {
            issuer: e.OIDC_ISSUER,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            name: e.OIDC_NAME,
          },
        }
      : {}),
    ...(e.SMTP_URL && e.MAIL_FROM ? { mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM } } : {}),
    consoleDir: e.CONSOLE_DIR,
    metricsPort: e.METRICS_PORT,
    hstsMaxAgeSeconds: e.HSTS_MAX_AGE_SECONDS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    authFailuresPerMinute: e.AUTH_FAILURES_PER_MINUTE,
    sessionRequestsPerMinute: e.SESSION_REQUESTS_PER_MINUTE,
    signInThrottle: Object.freeze({
      ...DEFAULT_THROTTLE,
      perAddress: e.SIGN_IN_ATTEMPTS_PER_ADDRESS,
      signUpsPerAddress: e.SIGN_UPS_PER_ADDRESS,
      linksPerAddress: e.LINK_REQUESTS_PER_ADDRESS,
      oidcStartsPerAddress: e.OIDC_STARTS_PER_ADDRESS,
      linksPerEmail: e.LINK_REQUESTS_PER_EMAIL,
    }),
    mailQuota: Object.freeze({
      perAddress: e.MAIL_QUOTA_PER_ADDRESS,
      perRecipient: e.MAIL_QUOTA_PER_RECIPIENT,
      perWorkspace: e.MAIL_QUOTA_PER_WORKSPACE,
    }),
    hashing: Object.freeze({ concurrency: e.PASSWORD_HASH_CONCURRENCY, queue: e.PASSWORD_HASH_QUEUE }),
    audit: Object.freeze({
      retentionDays: e.AUDIT_RETENTION_DAYS,
      pruneIntervalMs: e.AUDIT_PRUNE_INTERVAL_MS,
      failureFlushMs: e.AUDIT_FAILURE_FLUSH_MS,
    }),
    linkPurgeIntervalMs: e.LINK_PURGE_INTERVAL_MS,
  });
}
