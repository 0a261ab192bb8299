import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/** Message types after which the client waits for the server: the end of a unit of work. */
const UNIT_END = new Set(['S', 'Q']);

/**
 * Serves one PGlite database to many Postgres wire-protocol clients.
 *
 * PGlite is a single session. @electric-sql/pglite-socket's multiplexer
 * hands that session to the next queued *message*, so two clients using the
 * extended protocol (Parse/Bind/Execute/Sync) interleave and one gets
 * "bind message supplies N parameters". We hand the session over only at
 * unit boundaries instead: a client's messages are gathered up to Sync or a
 * simple Query and run together, and a client inside a transaction
 * (ReadyForQuery status T or E) keeps the session until it leaves it.
 *
 * With a `password`, a client must send it before its startup reaches
 * PGlite (AuthenticationCleartextPassword: the server listens on loopback
 * only, where nobody else can read the bytes; PGlite itself accepts anyone),
 * so another local user who finds the port cannot use the database.
 */
export class PgliteWireServer {
  private readonly server: Server;
  private owner: Connection | undefined;
  private readonly waiting: Array<{ conn: Connection; grant: () => void }> = [];
  private readonly connections = new Set<Connection>();
  private readonly passwordDigest: Buffer | undefined;

  constructor(
    private readonly db: PGlite,
    options: { password?: string } = {},
  ) {
    this.server = createServer((socket) => this.accept(socket));
    this.passwordDigest = options.password === undefined ? undefined : digest(options.password);
  }

  /** Whether a connection must authenticate before its startup runs. */
  get requiresPassword(): boolean {
    return this.passwordDigest !== undefined;
  }

  /** Constant-time comparison with the server's password. */
  passwordMatches(given: string): boolean {
    return this.passwordDigest !== undefined && timingSafeEqual(digest(given), this.passwordDigest);
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  async close(): Promise<void> {
    for (const conn of this.connections) conn.socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Waits until `conn` may use the session. */
  acquire(conn: Connection): Promise<void> {
    if (this.owner === undefined || this.owner === conn) {
      this.owner = conn;
      return Promise.resolve();
    }
    return new Promise((grant) => this.waiting.push({ conn, grant }));
  }

  release(conn: Connection): void {
    if (this.owner !== conn) return;
    const next = this.waiting.shift();
    this.owner = next?.conn;
    next?.grant();
  }

  /** Runs one unit of work for `conn`; returns the transaction status it left. */
  async run(message: Uint8Array, write: (chunk: Uint8Array) => void): Promise<string> {
    let status = 'I';
    await this.db.runExclusive(() =>
      this.db.execProtocolRawStream(message, {
        onRawData: (chunk) => {
          // ReadyForQuery is 'Z', length 5, status byte; it ends every unit.
          if (chunk.length >= 6 && chunk[chunk.length - 6] === 0x5a)
            status = String.fromCharCode(chunk[chunk.length - 1] ?? 73);
          write(chunk);
        },
      }),
    );
    return status;
  }

  /** A client left: roll back what it left open and let the next one in. */
  async abandon(conn: Connection): Promise<void> {
    this.connections.delete(conn);
    const index = this.waiting.findIndex((w) => w.conn === conn);
    if (index >= 0) this.waiting.splice(index, 1);
    if (this.owner !== conn) return;
    try {
      if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    } finally {
      this.release(conn);
    }
  }

  private accept(socket: Socket): void {
    socket.setNoDelay(true);
    const conn = new Connection(socket, this);
    this.connections.add(conn);
  }
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** AuthenticationCleartextPassword: 'R', length 8, code 3. */
const ASK_PASSWORD = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]);

/** A FATAL ErrorResponse with SQLSTATE 28P01 (invalid_password), as Postgres sends it. */
function passwordRefused(): Buffer {
  const fields = ['SFATAL', 'VFATAL', 'C28P01', 'Mpassword authentication failed'].map((f) => Buffer.from(`${f}\0`));
  const body = Buffer.concat([...fields, Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
}

class Connection {
  private buffer = Buffer.alloc(0);
  private unit: Buffer[] = [];
  private started = false;
  /** the startup packet, held until the password message arrives */
  private pendingStartup: Buffer | undefined;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    readonly socket: Socket,
    private readonly server: PgliteWireServer,
  ) {
    socket.on('data', (data) => this.onData(data));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.closed = true;
      this.chain = this.chain.then(() => this.server.abandon(this));
    });
  }

  private onData(data: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, data]);
    for (;;) {
      const message = this.started ? this.nextTyped() : this.nextStartup();
      if (!message) return;
    }
  }

  /** Startup-phase packets have no type byte: SSL/GSS requests, cancel, startup. */
  private nextStartup(): boolean {
    if (this.buffer.length < 8) return false;
    const length = this.buffer.readInt32BE(0);
    if (this.buffer.length < length) return false;
    const code = this.buffer.readInt32BE(4);
    const packet = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
      this.socket.write('N');
    } else if (code === CANCEL_REQUEST) {
      this.socket.end(); // nothing to signal: PGlite runs in this process
    } else if (code === PROTOCOL_3) {
      this.started = true;
      if (this.server.requiresPassword) {
        this.pendingStartup = Buffer.from(packet);
        this.socket.write(ASK_PASSWORD);
      } else {
        this.enqueue(Buffer.from(packet));
      }
    } else {
      this.socket.destroy();
    }
    return true;
  }

  private nextTyped(): boolean {
    if (this.buffer.length < 5) return false;
    const length = 1 + this.buffer.readInt32BE(1);
    if (this.buffer.length < length) return false;
    const type = String.fromCharCode(this.buffer[0] ?? 0);
    const message = Buffer.from(this.buffer.subarray(0, length));
    this.buffer = this.buffer.subarray(length);
    if (type === 'X') {
      this.socket.end();
      return true;
    }
    if (this.pendingStartup) {
      this.authenticate(type, message);
      return true;
    }
    this.unit.push(message);
    if (UNIT_END.has(type)) {
      const unit = Buffer.concat(this.unit);
      this.unit = [];
      this.enqueue(unit);
    }
    return true;
  }

  /** The answer to the password request: the held startup runs, or the connection is refused and closed. */
  private authenticate(type: string, message: Buffer): void {
    const startup = this.pendingStartup as Buffer;
    this.pendingStartup = undefined;
    // PasswordMessage: 'p', length, the password NUL-terminated
    const given = type === 'p' ? message.subarray(5, message.length - 1).toString('utf8') : '';
    if (type === 'p' && this.server.passwordMatches(given)) {
      this.enqueue(startup);
      return;
    }
    this.buffer = Buffer.alloc(0);
    this.socket.end(passwordRefused());
  }

  /** Units of one connection run in order, each holding the session as long as it must. */
  private enqueue(unit: Buffer): void {
    this.chain = this.chain.then(async () => {
      if (this.closed) return;
      await this.server.acquire(this);
      let status = 'I';
      try {
        status = await this.server.run(unit, (chunk) => {
          if (!this.socket.destroyed) this.socket.write(chunk);
        });
      } catch {
        this.socket.destroy();
      } finally {
        if (status === 'I' || this.closed) this.server.release(this);
      }
    });
  }
}
