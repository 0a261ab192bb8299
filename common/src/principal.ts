/**
 * The identity the gateway hands to a service: a short-lived, HMAC-signed
 * header bound to the request's method and path, with a one-time id so a
 * captured header cannot be replayed. Services trust nothing else, so a
 * request that bypasses the gateway is refused.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

export const PRINCIPAL_HEADER = 'x-skills-principal';
const VERSION = 'v1';

export type Plan = 'free' | 'pro' | 'team';

export type Principal =
  | { kind: 'account'; accountId: string; plan: Plan; keyId: string }
  | { kind: 'admin' };

interface SignedClaims {
  p: Principal;
  /** method and path the signature is bound to */
  m: string;
  u: string;
  iat: number;
  exp: number;
  jti: string;
}

export type VerifyFailure = 'missing' | 'malformed' | 'signature' | 'expired' | 'replayed' | 'binding';

export class PrincipalVerificationError extends Error {
  constructor(readonly reason: VerifyFailure) {
    super(`principal rejected: ${reason}`);
    this.name = 'PrincipalVerificationError';
  }
}

export interface PrincipalSignerOptions {
  secret: string;
  /** lifetime of a signed header; a few seconds is enough for one hop */
  ttlMs?: number;
  now?: () => number;
}

function mac(secret: string, data: string): Buffer {
  return createHmac('sha256', secret).update(data).digest();
}

export class PrincipalSigner {
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PrincipalSignerOptions) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  /** Signs `principal` for one request (`method` + `url` as the service sees them). */
  sign(principal: Principal, method: string, url: string): string {
    const iat = this.now();
    const claims: SignedClaims = { p: principal, m: method.toUpperCase(), u: url, iat, exp: iat + this.ttlMs, jti: randomUUID() };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const signature = mac(this.options.secret, `${VERSION}.${payload}`).toString('base64url');
    return `${VERSION}.${payload}.${signature}`;
  }
}

export class PrincipalVerifier {
  private readonly now: () => number;
  /** jti → expiry; entries leave once expired, so memory is bounded by rate × ttl. */
  private readonly seen = new Map<string, number>();
  private lastPrune = 0;

  constructor(private readonly options: PrincipalSignerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Returns the principal or throws PrincipalVerificationError naming why. */
  verify(header: string | undefined, method: string, url: string): Principal {
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
    const now = this.now();
    if (typeof claims.exp !== 'number' || claims.exp < now) throw new PrincipalVerificationError('expired');
    if (claims.m !== method.toUpperCase() || claims.u !== url) throw new PrincipalVerificationError('binding');
    this.prune(now);
    if (this.seen.has(claims.jti)) throw new PrincipalVerificationError('replayed');
    this.seen.set(claims.jti, claims.exp);
    return claims.p;
  }

  private prune(now: number): void {
    if (now - this.lastPrune < 1_000) return;
    this.lastPrune = now;
    for (const [jti, exp] of this.seen) if (exp < now) this.seen.delete(jti);
  }
}
