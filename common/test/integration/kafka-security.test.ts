/**
 * What the Kafka clients of both services are built with: TLS options that
 * verify the broker against the configured CA (checked on a real TLS
 * handshake, as kafkajs hands them to tls.connect), SCRAM credentials as
 * kafkajs takes them, and a clear failure when a file is missing. The CA and
 * broker certificates are made with openssl for the test (skipped without it).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer, type Server } from 'node:tls';
import { ConfigError } from '../../src';
import { kafkaSecurityConfig } from '../../src/kafka';

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A CA, and a certificate it signs for the broker at 127.0.0.1; all files in `dir`. */
function makeCertificates(dir: string, prefix: string): { ca: string; cert: string; key: string } {
  const file = (name: string) => join(dir, `${prefix}-${name}`);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
    '-subj',
    `/CN=${prefix} test CA`,
    '-days',
    '1',
  );
  openssl('req', ...ec, '-keyout', file('broker.key'), '-out', file('broker.csr'), '-subj', '/CN=broker');
  writeFileSync(file('ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl(
    'x509',
    '-req',
    '-in',
    file('broker.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('broker.crt'),
    '-days',
    '1',
    '-extfile',
    file('ext'),
  );
  return { ca: file('ca.crt'), cert: file('broker.crt'), key: file('broker.key') };
}

describe('kafkaSecurityConfig', () => {
  it('is plaintext and anonymous without settings', () => {
    expect(kafkaSecurityConfig()).toEqual({});
    expect(kafkaSecurityConfig({})).toEqual({});
  });

  it('passes SCRAM credentials as kafkajs takes them, and TLS with verification on', () => {
    const sasl = { mechanism: 'scram-sha-512' as const, username: 'catalog-service', password: 'pw' };
    expect(kafkaSecurityConfig({ tls: {}, sasl })).toEqual({ ssl: { rejectUnauthorized: true }, sasl });
  });

  it('fails naming the variable when a file cannot be read', () => {
    expect(() => kafkaSecurityConfig({ tls: { caFile: '/nowhere/ca.crt' } })).toThrow(ConfigError);
    expect(() => kafkaSecurityConfig({ tls: { caFile: '/nowhere/ca.crt' } })).toThrow(
      /KAFKA_SSL_CA_FILE: cannot read \/nowhere\/ca\.crt/,
    );
  });
});

const describeTls = hasOpenssl() ? describe : describe.skip;

describeTls('kafkaSecurityConfig on a TLS handshake with a broker', () => {
  let dir: string;
  let server: Server;
  let port: number;
  let ours: { ca: string; cert: string; key: string };
  let theirs: { ca: string; cert: string; key: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kafka-tls-'));
    ours = makeCertificates(dir, 'ours');
    theirs = makeCertificates(dir, 'theirs');
    server = createServer({ cert: readFileSync(ours.cert), key: readFileSync(ours.key) }, (socket) => socket.end());
    server.on('tlsClientError', () => undefined);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Resolves to 'connected', or to the client's TLS error code, as tls.connect with kafkajs's options ends. */
  function handshake(caFile: string): Promise<string> {
    const { ssl } = kafkaSecurityConfig({ tls: { caFile } });
    if (typeof ssl !== 'object') throw new Error('no TLS options');
    return new Promise((resolve) => {
      const socket = connect({ host: '127.0.0.1', port, ...ssl }, () => {
        socket.destroy();
        resolve('connected');
      });
      socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
  }

  it('trusts a broker whose certificate the configured CA signed', async () => {
    expect(await handshake(ours.ca)).toBe('connected');
  });

  it('refuses a broker the configured CA did not sign: no silent fallback to plaintext or to trust', async () => {
    expect(await handshake(theirs.ca)).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED|UNABLE_TO_GET_ISSUER_CERT/);
  });
});
