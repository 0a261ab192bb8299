/**
 * The identity the gateway hands to a service: a short-lived header signed
 * with the gateway's Ed25519 key, for one receiving service (`aud`), bound to
 * the request's method, path and body, with a one-time id so a captured
 * header cannot be replayed (docs/security.md says exactly where "one-time"
 * holds). Services hold public keys only: they can check a header, never
 * make one. The header is a JWS in compact form (`alg: EdDSA`, `kid`), so any
 * JOSE library can read it.
 */
import { createHash, randomUUID, sign as signBytes, verify as verifyBytes } from 'node:crypto';
import type { PublicKeyRing, SigningKey } from './principal-key-pem';
import type { SearchPolicy } from './events';
import { MemoryReplayGuard, type ReplayGuard } from './replay-guard';

export const PRINCIPAL_HEADER = 'x-skills-principal';
/** On a service's 503: the principal had expired (the gateway re-signs and retries); never passed on to a client. */
export const PRINCIPAL_EXPIRED_HEADER = 'x-skills-principal-expired';
const TYPE = 'skills-principal+v2';

export type Plan = 'free' | 'pro' | 'team';

export type Principal =
  | {
      kind: 'account';
      accountId: string;
      plan: Plan;
      keyId: string;
      /** a workspace policy every search of this request applies (docs/governance.md); set only by the gateway */
      searchPolicy?: SearchPolicy;
    }
  | { kind: 'admin' }
  /** a security scanner's credential (docs/trust.md): it may record verdicts and nothing else */
  | { kind: 'scanner'; scannerId: string; name: string };

/** The services a header can be meant for; each accepts only its own name. */
export type PrincipalAudience = 'catalog-service' | 'collections-service';

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
  /** the one service this header is for */
  aud: PrincipalAudience;
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

interface SignedHeader {
  alg: 'EdDSA';
  typ: typeof TYPE;
  kid: string;
}

export type VerifyFailure =
  'missing' | 'malformed' | 'key' | 'signature' | 'audience' | 'expired' | 'replayed' | 'binding' | 'body';

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

/** The key the gateway signs with now; a key file swaps it during a rotation. */
export interface SigningKeySource {
  current(): SigningKey;
}

/** The public keys a service accepts now; a key file swaps them during a rotation. */
export interface PublicKeySource {
  current(): PublicKeyRing;
}

/** A key that never changes (tests, and processes that restart to rotate). */
export function fixedKeys<T>(keys: T): { current(): T } {
  return { current: () => keys };
}

export interface PrincipalSignerOptions {
  keys: SigningKeySource;
  /** lifetime of a signed header (PRINCIPAL_TTL_MS) */
  ttlMs?: number;
  now?: () => number;
}

export interface PrincipalVerifierOptions {
  /** the name of the service verifying: a header for another service is refused */
  audience: PrincipalAudience;
  keys: PublicKeySource;
  now?: () => number;
  /** remembers the ids already used; one per process unless a shared one is given (RedisReplayGuard) */
  replayGuard?: ReplayGuard;
}

function encode(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decode(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
  } catch {
    throw new PrincipalVerificationError('malformed');
  }
}

export class PrincipalSigner {
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PrincipalSignerOptions) {
    this.ttlMs = options.ttlMs ?? PRINCIPAL_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /**
   * Signs `principal` for one request to `audience`: `method` + `url` as the
   * service sees them, and `body`, the digest of the exact bytes sent
   * (EMPTY_BODY when there are none, STREAMED_BODY for the streamed import).
   */
  sign(
    principal: Principal,
    audience: PrincipalAudience,
    method: string,
    url: string,
    body: SignedBody = EMPTY_BODY,
  ): string {
    const key = this.options.keys.current();
    const iat = this.now();
    const header: SignedHeader = { alg: 'EdDSA', typ: TYPE, kid: key.kid };
    const claims: SignedClaims = {
      aud: audience,
      p: principal,
      m: method.toUpperCase(),
      u: url,
      b: body,
      iat,
      exp: iat + this.ttlMs,
      jti: randomUUID(),
    };
    const signingInput = `${encode(header)}.${encode(claims)}`;
    return `${signingInput}.${signBytes(null, Buffer.from(signingInput), key.privateKey).toString('base64url')}`;
  }
}

/** A kid is a base64url SHA-256 (43 characters); anything longer is not one of ours. */
const MAX_HEADER_PART = 256;

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
    if (!(await this.replayGuard.firstUse(claims.jti, claims.exp, claims.m)))
      throw new PrincipalVerificationError('replayed');
    return { principal: claims.p, body: claims.b };
  }

  /** Signature, audience, lifetime and binding: everything but the one-time check. */
  private checked(header: string | undefined, method: string, url: string): SignedClaims {
    if (!header) throw new PrincipalVerificationError('missing');
    const parts = header.split('.');
    if (parts.length !== 3) throw new PrincipalVerificationError('malformed');
    const [head, payload, signature] = parts as [string, string, string];
    if (head.length > MAX_HEADER_PART) throw new PrincipalVerificationError('malformed');
    const protectedHeader = decode(head) as Partial<SignedHeader> | null;
    if (protectedHeader?.alg !== 'EdDSA' || protectedHeader.typ !== TYPE || typeof protectedHeader.kid !== 'string') {
      throw new PrincipalVerificationError('malformed');
    }
    const key = this.options.keys.current().byKid(protectedHeader.kid);
    if (!key) throw new PrincipalVerificationError('key');
    if (!verifyBytes(null, Buffer.from(`${head}.${payload}`), key, Buffer.from(signature, 'base64url'))) {
      throw new PrincipalVerificationError('signature');
    }
    const claims = decode(payload) as SignedClaims;
    if (typeof claims?.b !== 'string' || typeof claims.jti !== 'string')
      throw new PrincipalVerificationError('malformed');
    if (claims.aud !== this.options.audience) throw new PrincipalVerificationError('audience');
    if (typeof claims.exp !== 'number' || claims.exp < this.now()) throw new PrincipalVerificationError('expired');
    if (claims.m !== method.toUpperCase() || claims.u !== url) throw new PrincipalVerificationError('binding');
    return claims;
  }
}
