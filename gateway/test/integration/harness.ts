/**
 * Integration harness: a real test database, two small fake services that
 * verify the gateway's principal and echo what they received, and the gateway
 * itself started the way main.ts starts it.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import {
  AppError,
  PRINCIPAL_HEADER,
  PrincipalVerificationError,
  createLogger,
  principalRejected,
  translate,
  type PrincipalAudience,
  type PrincipalVerifier,
  type Principal,
  type VerifiedPrincipal,
} from '@skills/common';
import { createTestDatabase, testPrincipalKeys, type TestDatabase, silentLogger } from '@skills/common/testing';
import {
  GATEWAY_CONFIG_DEFAULTS,
  startGateway,
  type GatewayConfig,
  type GatewayStartOptions,
  type RunningService,
} from '../../src';

const silent = silentLogger('fake-service');

/** how many bytes of a `/big` answer the fake service holds back until released */
export const BIG_ANSWER_HELD_BACK = 4;

export const ADMIN_TOKEN = 'admin-token-for-tests-0123456789abcdef';
/** The gateway's key pair in these tests: it signs with the private half, the fake services verify with the public one. */
export const PRINCIPAL_KEYS = testPrincipalKeys();

export interface Echo {
  upstream: string;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  principal: Principal;
  principalHeader: string;
  /** what the principal was signed for: the body's digest, or STREAMED_BODY */
  signedBody: string;
  bodyLength: number;
  bodySha256: string;
  bodyText: string;
}

/** What a test makes a fake service answer instead of its echo: a JSON body, or `raw` bytes sent as they are. */
export interface FakeAnswer {
  status: number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

/** A stand-in for catalog-service or collections-service that can be stopped and restarted on its port. */
export class FakeService {
  private server: Server | undefined;
  port = 0;
  readonly verifier: PrincipalVerifier;
  /** every request that reached the service past /healthz */
  readonly received: string[] = [];
  /** how many times /healthz was asked (the gateway's readiness check) */
  healthChecks = 0;
  /** what a GET of a path ending in `/big` answers (see start()) */
  bigAnswer: { bytes: number; release: Promise<void> } | undefined;
  /** while set, every answer past the principal check waits for this promise */
  holdAnswers: Promise<void> | undefined;
  /** the next this many principals are read a minute late, as after a long wait: expired */
  expireNext = 0;
  /** a test's own answers, asked first (after the principal check); undefined: the echo */
  answer: ((req: express.Request, principal: Principal) => FakeAnswer | undefined) | undefined;
  private readonly lateVerifier: PrincipalVerifier;

  constructor(
    readonly name: string,
    readonly audience: PrincipalAudience,
  ) {
    this.verifier = PRINCIPAL_KEYS.verifier(audience);
    this.lateVerifier = PRINCIPAL_KEYS.verifier(audience, { now: () => Date.now() + 60_000 });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const app = express();
    app.disable('x-powered-by'); // as the real services (createServiceApp)
    app.get('/healthz', (_req, res) => {
      this.healthChecks += 1;
      res.json({ data: { status: 'ok' } });
    });
    app.use(async (req, res) => {
      this.received.push(`${req.method} ${req.originalUrl}`);
      let verified: VerifiedPrincipal;
      const verifier = this.expireNext > 0 ? this.lateVerifier : this.verifier;
      if (this.expireNext > 0) this.expireNext -= 1;
      try {
        verified = await verifier.verify(req.get(PRINCIPAL_HEADER), req.method, req.originalUrl);
      } catch (err) {
        // The services' own mapping (requirePrincipal): an expired principal is their 503, the rest a 401.
        const answer = principalRejected(err, res, silent);
        if (answer instanceof AppError && answer.status === 503) {
          res
            .status(503)
            .set(answer.headers)
            .json({ error: translate(answer.messageKey, 'en') });
          return;
        }
        res.status(401).json({ error: `principal ${(err as PrincipalVerificationError).reason}` });
        return;
      }
      if (this.holdAnswers) await this.holdAnswers;
      const own = this.answer?.(req, verified.principal);
      if (own) {
        res.status(own.status).set(own.headers ?? {});
        if (own.raw !== undefined) res.end(own.raw);
        else if (own.body === undefined) res.end();
        else res.json(own.body);
        return;
      }
      if (req.path.endsWith('/slow')) await new Promise((r) => setTimeout(r, 1_500).unref());
      // A JSON answer of `bigAnswer.bytes`, whose last BIG_ANSWER_HELD_BACK bytes wait for `bigAnswer.release`.
      if (req.path.endsWith('/big') && this.bigAnswer) {
        const { bytes, release } = this.bigAnswer;
        const json = `{"data":{"blob":"${'x'.repeat(bytes - 20)}"}}`;
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(bytes) });
        res.write(json.slice(0, -BIG_ANSWER_HELD_BACK));
        await release;
        res.end(json.slice(-BIG_ANSWER_HELD_BACK));
        return;
      }
      // A body that does not change between calls, for conditional requests.
      if (req.path.endsWith('/stable')) {
        res.json({ data: { collection: { name: 'stable' } } });
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const echo: Echo = {
        upstream: this.name,
        method: req.method,
        url: req.originalUrl,
        headers: req.headers,
        principal: verified.principal,
        principalHeader: req.get(PRINCIPAL_HEADER) ?? '',
        signedBody: verified.body,
        bodyLength: body.length,
        bodySha256: createHash('sha256').update(body).digest('hex'),
        bodyText: body.length <= 10_000 ? body.toString('utf8') : '',
      };
      res.setHeader('X-Upstream', this.name);
      res.setHeader('ETag', '"v1"');
      res.setHeader('Connection', 'keep-alive');
      res.status(req.method === 'POST' ? 201 : 200).json({ data: echo });
    });
    this.server = app.listen(this.port);
    await once(this.server, 'listening');
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }
}

export interface Harness {
  db: TestDatabase;
  gateway: RunningService;
  catalog: FakeService;
  collections: FakeService;
  http: ReturnType<typeof request>;
  /** the monitoring listener: /metrics and the live /readyz */
  monitor: ReturnType<typeof request>;
  admin(method: 'get' | 'post' | 'patch' | 'put' | 'delete', path: string, body?: object): request.Test;
  /** a new account with one key; returns both */
  accountWithKey(plan: 'free' | 'pro' | 'team'): Promise<{ accountId: string; keyId: string; key: string }>;
  /** the gateway's log lines at warn and above (or `logLevel` when given), parsed: where it writes links when no mail is configured */
  logged: Record<string, unknown>[];
  close(): Promise<void>;
}

/**
 * `options.now`: the answer cache's clock, for tests that step over its time to live. `database`: one the test
 * prepared (an earlier schema, rows of an earlier version), dropped with the harness; a fresh one otherwise.
 */
export async function startHarness(
  overrides: Partial<GatewayConfig> = {},
  options: GatewayStartOptions = {},
  database?: TestDatabase,
): Promise<Harness> {
  const db = database ?? (await createTestDatabase());
  const keysDir = await mkdtemp(join(tmpdir(), 'gateway-keys-'));
  const { signingKeyFile } = await PRINCIPAL_KEYS.writeTo(keysDir);
  const catalog = new FakeService('catalog', 'catalog-service');
  const collections = new FakeService('collections', 'collections-service');
  await Promise.all([catalog.start(), collections.start()]);
  const config: GatewayConfig = {
    ...GATEWAY_CONFIG_DEFAULTS,
    port: 0,
    databaseUrl: db.url,
    adminToken: ADMIN_TOKEN,
    principalSigningKeyFile: signingKeyFile,
    principalKeysReloadMs: 0,
    catalogUrl: catalog.url,
    collectionsUrl: collections.url,
    keyCacheTtlMs: 1_000,
    upstreamTimeoutMs: 500,
    dbPoolMax: 5,
    logLevel: 'silent',
    rateLimits: { pro: 6_000, team: 6_000 },
    // off unless a test is about it: most tests count what reaches the fake services
    answerCache: { ttlMs: 0, maxEntries: 0 },
    host: '127.0.0.1',
    metricsPort: 0,
    hstsMaxAgeSeconds: 0,
    trustProxy: false,
    // off unless a test is about it: suites send many refused keys from one address
    authFailuresPerMinute: 0,
    // sign-ups and sign-ins all come from 127.0.0.1 here; the throttle's own suite sets its limits
    signInThrottle: {
      perAddress: 10_000,
      freeFailures: 3,
      signUpsPerAddress: 10_000,
      linksPerAddress: 10_000,
      linksPerEmail: 10_000,
      oidcStartsPerAddress: 10_000,
      windowMs: 15 * 60_000,
    },
    // failed authentications reach the audit trail within 100 ms; no retention pass unless a test runs one
    audit: { retentionDays: 90, pruneIntervalMs: 0, failureFlushMs: 100 },
    // no purge of links behind a test's back; link-purge.test.ts runs its passes itself
    linkPurgeIntervalMs: 0,
    ...overrides,
  };
  const logged: Record<string, unknown>[] = [];
  const destination = { write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>) };
  // warn and above unless a test asks for more (one that proves a secret is never logged reads every line)
  const level = overrides.logLevel && overrides.logLevel !== 'silent' ? overrides.logLevel : 'warn';
  const gateway = await startGateway(config, createLogger({ service: 'gateway-test', level, destination }), options);
  const http = request(gateway.url);
  let emails = 0;
  const admin: Harness['admin'] = (method, path, body) => {
    const test = http[method](path).set('Authorization', `Bearer ${ADMIN_TOKEN}`);
    return body === undefined ? test : test.send(body);
  };
  return {
    db,
    gateway,
    catalog,
    collections,
    http,
    monitor: request(gateway.metricsUrl),
    admin,
    logged,
    async accountWithKey(plan) {
      emails += 1;
      const account = await admin('post', '/admin/v1/accounts', { email: `user${emails}@example.com`, plan }).expect(
        201,
      );
      const accountId = account.body.data.account.id as string;
      const created = await admin('post', `/admin/v1/accounts/${accountId}/api-keys`, { name: 'ci' }).expect(201);
      return { accountId, keyId: created.body.data.apiKey.id, key: created.body.data.apiKey.key };
    },
    async close() {
      await gateway.close();
      await Promise.all([catalog.stop(), collections.stop()]);
      await db.drop();
      await rm(keysDir, { recursive: true, force: true });
    },
  };
}
