/**
 * The keys of the principal header: the gateway signs with an Ed25519
 * private key, the services verify with public keys only, so a service that
 * is compromised cannot sign a header another service would accept. Each key
 * is named by its `kid`, the RFC 7638 JWK thumbprint of the public key: the
 * same key has the same id everywhere, and no id has to be configured.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

/** A rotation overlaps the outgoing and the incoming key; more than two means one was never retired. */
const MAX_PUBLIC_KEYS = 2;

export class PrincipalKeyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PrincipalKeyError';
  }
}

/** The private key the gateway signs with, and the id the services look its public half up by. */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
}

/** The public keys a service accepts, by id. */
export interface PublicKeyRing {
  /** the key named `kid`, undefined when this service does not (or no longer) accept it */
  byKid(kid: string): KeyObject | undefined;
  /** the accepted ids, for logs */
  readonly kids: readonly string[];
}

/** RFC 7638 thumbprint of an Ed25519 public key: base64url SHA-256 of `{"crv","kty","x"}` in that order. */
export function keyIdOf(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return createHash('sha256').update(canonical).digest('base64url');
}

function requireEd25519(key: KeyObject, what: string): void {
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new PrincipalKeyError(`${what} is a ${key.asymmetricKeyType ?? 'symmetric'} key; principal keys are Ed25519`);
  }
}

/** Parses a PKCS#8 PEM private key (`openssl genpkey -algorithm ed25519`). */
export function parseSigningKey(pem: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem' });
  } catch (err) {
    throw new PrincipalKeyError('the signing key is not a PEM private key', { cause: err });
  }
  requireEd25519(privateKey, 'the signing key');
  return { kid: keyIdOf(createPublicKey(privateKey)), privateKey };
}

const PEM_BLOCK = /-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g;

/** Parses one or two SPKI PEM public keys, concatenated (`openssl pkey -pubout`). */
export function parsePublicKeys(pem: string): PublicKeyRing {
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) throw new PrincipalKeyError('no "BEGIN PUBLIC KEY" block found');
  if (blocks.length > MAX_PUBLIC_KEYS) {
    throw new PrincipalKeyError(
      `${blocks.length} public keys: at most ${MAX_PUBLIC_KEYS} (the current one and, during a rotation, the next or previous one)`,
    );
  }
  const byKid = new Map<string, KeyObject>();
  blocks.forEach((block, i) => {
    let key: KeyObject;
    try {
      key = createPublicKey({ key: block, format: 'pem' });
    } catch (err) {
      throw new PrincipalKeyError(`public key ${i + 1} is not a valid PEM public key`, { cause: err });
    }
    requireEd25519(key, `public key ${i + 1}`);
    byKid.set(keyIdOf(key), key);
  });
  return publicKeyRing(byKid);
}

function publicKeyRing(byKid: ReadonlyMap<string, KeyObject>): PublicKeyRing {
  return { byKid: (kid) => byKid.get(kid), kids: [...byKid.keys()] };
}

/** A new key pair as the PEM files the processes read (the embedded run and tests make their own). */
export function generatePrincipalKeyPair(): { signingKeyPem: string; publicKeyPem: string; kid: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    signingKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    kid: keyIdOf(publicKey),
  };
}
