/**
 * Principal keys read from files and read again while the process runs, so a
 * key rotation needs no restart: Kubernetes updates a mounted Secret in place,
 * compose and the embedded run replace the file. A file that is missing or
 * invalid at start fails the start; one that turns invalid later is logged
 * and the keys in use stay (a half-written file must not lock everyone out).
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import { ConfigError } from './config';
import type { PublicKeySource, SigningKeySource } from './principal';
import {
  PrincipalKeyError,
  generatePrincipalKeyPair,
  parsePublicKeys,
  parseSigningKey,
  type PublicKeyRing,
  type SigningKey,
} from './principal-key-pem';

export interface KeyFileOptions {
  path: string;
  /** how often the file is read again; 0 reads it once */
  reloadMs: number;
  logger: Logger;
}

interface Parsed<T> {
  parse(text: string): T;
  /** what the logs say about the keys: their ids, never the keys */
  ids(keys: T): string[];
  what: string;
}

/** One key file and what it parsed to; `current()` is what signing or verifying uses now. */
export class KeyFile<T> {
  private keys: T;
  private text: string;
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;

  private constructor(
    private readonly options: KeyFileOptions,
    private readonly parsed: Parsed<T>,
    first: { text: string; keys: T },
  ) {
    this.text = first.text;
    this.keys = first.keys;
  }

  static async open<T>(options: KeyFileOptions, parsed: Parsed<T>): Promise<KeyFile<T>> {
    let text: string;
    try {
      text = await readFile(options.path, 'utf8');
    } catch (err) {
      throw new PrincipalKeyError(`cannot read the ${parsed.what} file ${options.path}: ${(err as Error).message}`, {
        cause: err,
      });
    }
    let keys: T;
    try {
      keys = parsed.parse(text);
    } catch (err) {
      throw new PrincipalKeyError(`${options.path}: ${(err as Error).message}`, { cause: err });
    }
    const file = new KeyFile(options, parsed, { text, keys });
    options.logger.info({ file: options.path, kids: parsed.ids(keys) }, `${parsed.what} loaded`);
    if (options.reloadMs > 0) file.timer = setInterval(() => void file.reload(), options.reloadMs).unref();
    return file;
  }

  current(): T {
    return this.keys;
  }

  /** Reads the file again and switches to its keys when they changed and parse; resolves once done. */
  reload(): Promise<void> {
    this.reading ??= this.readAgain().finally(() => (this.reading = undefined));
    return this.reading;
  }

  close(): void {
    clearInterval(this.timer);
  }

  private async readAgain(): Promise<void> {
    const { path, logger } = this.options;
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      logger.error({ err, file: path }, `${this.parsed.what} file unreadable; keeping the keys in use`);
      return;
    }
    if (text === this.text) return;
    try {
      const keys = this.parsed.parse(text);
      this.keys = keys;
      logger.info({ file: path, kids: this.parsed.ids(keys) }, `${this.parsed.what} loaded`);
    } catch (err) {
      logger.error(
        { err, file: path, kids: this.parsed.ids(this.keys) },
        `${this.parsed.what} file invalid; keeping the keys in use`,
      );
    }
    // Remembered either way: an invalid file is reported once, not on every read.
    this.text = text;
  }
}

/** The gateway's private key file (PKCS#8 PEM, Ed25519). */
export function openSigningKeyFile(options: KeyFileOptions): Promise<KeyFile<SigningKey> & SigningKeySource> {
  return KeyFile.open(options, { parse: parseSigningKey, ids: (key) => [key.kid], what: 'principal signing key' });
}

/** A service's public key file: one or two SPKI PEM blocks. */
export function openPublicKeysFile(options: KeyFileOptions): Promise<KeyFile<PublicKeyRing> & PublicKeySource> {
  return KeyFile.open(options, {
    parse: parsePublicKeys,
    ids: (ring) => [...ring.kids],
    what: 'principal public keys',
  });
}

/** Awaits a key file opened from the file named by env `variable`: a bad file fails the start as a ConfigError naming it. */
export async function keyFileOf<T>(variable: string, opening: Promise<T>): Promise<T> {
  try {
    return await opening;
  } catch (err) {
    if (err instanceof PrincipalKeyError) throw new ConfigError([`${variable}: ${err.message}`]);
    throw err;
  }
}

export interface PrincipalKeyFiles {
  /** the gateway's PRINCIPAL_SIGNING_KEY_FILE */
  signingKeyFile: string;
  /** the services' PRINCIPAL_PUBLIC_KEYS_FILE */
  publicKeysFile: string;
  kid: string;
}

/**
 * Writes a new key pair into `dir` (both files mode 0600, replaced
 * atomically): a run of its own, such as the benchmark's.
 */
export async function writePrincipalKeyFiles(dir: string): Promise<PrincipalKeyFiles> {
  const pair = generatePrincipalKeyPair();
  const signingKeyFile = join(dir, 'principal-signing-key.pem');
  const publicKeysFile = join(dir, 'principal-public-keys.pem');
  await writeKeyFile(signingKeyFile, pair.signingKeyPem);
  await writeKeyFile(publicKeysFile, pair.publicKeyPem);
  return { signingKeyFile, publicKeysFile, kid: pair.kid };
}

/** Replaces `path` in one step (write aside, then rename) so a process reading it never sees half a key. */
export async function writeKeyFile(path: string, pem: string): Promise<void> {
  const aside = `${path}.${process.pid}.tmp`;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(aside, pem, { mode: 0o600 });
  // writeFile's mode applies only when it creates the file.
  await chmod(aside, 0o600);
  await rename(aside, path);
}
