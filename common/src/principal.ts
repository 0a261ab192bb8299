/**
 * The identity the gateway hands to a service: a short-lived, HMAC-signed
 * header bound to the request's method, path and body, with a one-time id so
 * a captured header cannot be replayed (docs/security.md says exactly where
 * "one-time" holds). Services trust nothing else, so a request that bypasses
 * the gateway is refused.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { MemoryReplayGuard, type ReplayGuard } from './replay-guard';

export const PRINCIPAL_HEADER = 'x-skills-principal';
const VERSION = 'v1';

export type Plan = 'free' | 'pro' | 'team';

export type Principal =
  | { kind: 'account'; accountId: string; plan: Plan; keyId: string }
  | { kind: 'admin' };

/** The body a header is signed for: the digest of its exact bytes, or a streamed body (only the NDJSON import). */
export type SignedBody = string;
/** A body the gateway streams without holding it (the 50 MB import): not covered by a digest (docs/security.md). */
export const STREAMED_BODY: SignedBody = 'stream';

/** base64url SHA-256 of the exact body bytes; what the gateway signs and a service recomputes. */
export function bodyDigest(body: Buffer | string): SignedBody {
  return createHash('sha256').update(body).digest('base64url');
}

/** The digest of no body at all (a GET, a DELETE without one). */
export const EMPTY_BODY: SignedBody = bodyDigest('');

interface SignedClaims {
  p: Principal;
  /** method and path the signature is bound to */
  m: string;
  u: string;
  /** the body it is bound to: a digest, or STREAMED_BODY */
  b: SignedBody;
  iat: number;
  exp: number;
  jti: string;
}

export type VerifyFailure = 'missing' | 'malformed' | 'signature' | 'expired' | 'replayed' | 'binding' | 'body';

/** What a verified header says: who calls, and which body it was signed for. */
export interface VerifiedPrincipal {
  principal: Principal;
  body: SignedBody;
}

export class PrincipalVerificationError extends Error {
  constructor(readonly reason: VerifyFailure) {
    super(`principal rejected: ${reason}`);
    this.name = 'PrincipalVerificationError';
  }
}

/**
 * Lifetime of a signed header: one hop inside the deployment takes
 * milliseconds, so what remains is clock skew between the gateway's and a
 * service's host (NTP keeps it well under a second) plus a request queued
 * behind a busy event loop. Every second more is a second of replay window.
 */
export const PRINCIPAL_TTL_MS = 5_000;

export interface PrincipalSignerOptions {
  secret: string;
  /** lifetime of a signed header (PRINCIPAL_TTL_MS) */
  ttlMs?: number;
  now?: () => number;
}

export interface PrincipalVerifierOptions {
  secret: string;
  now?: () => number;
  /** remembers the ids already used; one per process unless a shared one is given (RedisReplayGuard) */
  replayGuard?: ReplayGuard;
}

function mac(secret: string, data: string): Buffer {
  return createHmac('sha256', secret).update(data).digest();
}

export class PrincipalSigner {
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PrincipalSignerOptions) {
    this.ttlMs = options.ttlMs ?? PRINCIPAL_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /**
   * Signs `principal` for one request: `method` + `url` as the service sees
   * them, and `body`, the digest of the exact bytes sent (EMPTY_BODY when
   * there are none, STREAMED_BODY for the streamed import).
   */
  sign(principal: Principal, method: string, url: string, body: SignedBody = EMPTY_BODY): string {
    const iat = this.now();
    const claims: SignedClaims = { p: principal, m: method.toUpperCase(), u: url, b: body, iat, exp: iat + this.ttlMs, jti: randomUUID() };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const signature = mac(this.options.secret, `${VERSION}.${payload}`).toString('base64url');
    return `${VERSION}.${payload}.${signature}`;
  }
}

export class PrincipalVerifier {
  private readonly now: () => number;
  private readonly replayGuard: ReplayGuard;

  constructor(private readonly options: PrincipalVerifierOptions) {
    this.now = options.now ?? Date.now;
    this.replayGuard = options.replayGuard ?? new MemoryReplayGuard({ now: this.now });
  }

  /**
   * Returns the principal and the body it was signed for, or throws
   * PrincipalVerificationError naming why. The body itself is checked by
   * whoever reads it (jsonBody), against `body`.
   */
  async verify(header: string | undefined, method: string, url: string): Promise<VerifiedPrincipal> {
    const claims = this.checked(header, method, url);
    if (!(await this.replayGuard.firstUse(claims.jti, claims.exp, claims.m))) throw new PrincipalVerificationError('replayed');
    return { principal: claims.p, body: claims.b };
  }

  /** Signature, lifetime and binding: everything but the one-time check. */
  private checked(header: string | undefined, method: string, url: string): SignedClaims {
    if (!header) throw new PrincipalVerificationError('missing');
    const parts = header.split('.');
    if (parts.length !== 3 || parts[0] !== VERSION) throw new PrincipalVerificationError('malformed');
    const [, payload, signature] = parts as [string, string, string];
    const expected = mac(this.options.secret, `${VERSION}.${payload}`);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new PrincipalVerificationError('signature');
    }
    let claims: SignedClaims;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SignedClaims;
    } catch {
      throw new PrincipalVerificationError('malformed');
    }
    if (typeof claims.b !== 'string' || typeof claims.jti !== 'string') throw new PrincipalVerificationError('malformed');
    if (typeof claims.exp !== 'number' || claims.exp < this.now()) throw new PrincipalVerificationError('expired');
    if (claims.m !== method.toUpperCase() || claims.u !== url) throw new PrincipalVerificationError('binding');
    return claims;
  }
}
