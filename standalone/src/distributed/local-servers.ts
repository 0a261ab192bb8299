/**
 * The servers of the topology, through the project's own scripts in
 * local-servers/ (real Elasticsearch 9 and Kafka from Maven Central, on
 * loopback): start them when they are not running, read where they listen.
 * The launcher leaves them running when it stops; the scripts stop them.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What `local-servers/kafka.sh env` prints, as the launcher uses it. */
export interface KafkaServer {
  /** PLAINTEXT listener (anonymous, for administration) */
  brokers: string;
  /** SASL_SSL + SCRAM-SHA-512 listener: the services' */
  saslBrokers: string;
  caFile: string;
  collectionsPassword: string;
  catalogPassword: string;
}

export interface LocalServers {
  elasticsearchUrl: string;
  kafka: KafkaServer;
}

/** The Elasticsearch major the services' client speaks (compose runs 9.x). */
export const ELASTICSEARCH_MAJOR = '9';

async function script(root: string, name: string, args: string[], timeoutMs: number): Promise<string> {
  // `env` spelled out: under jest, process.env is the test's copy, which child_process would not see by default
  const { stdout } = await run(join(root, 'local-servers', name), args, {
    cwd: root,
    env: process.env,
    timeout: timeoutMs,
    maxBuffer: 1 << 20,
  });
  return stdout.trim();
}

/** `KEY=value` lines (an `export ` prefix and quotes allowed) into a record. */
export function parseEnvLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^\s*(?:export\s+)?([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) out[m[1]] = m[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

export async function kafkaServer(root: string): Promise<KafkaServer> {
  const env = parseEnvLines(await script(root, 'kafka.sh', ['env'], 30_000));
  const need = [
    'KAFKA_BROKERS',
    'KAFKA_SASL_BROKERS',
    'KAFKA_CA_FILE',
    'KAFKA_COLLECTIONS_PASSWORD',
    'KAFKA_CATALOG_PASSWORD',
  ];
  const missing = need.filter((k) => !env[k]);
  if (missing.length) throw new Error(`local-servers/kafka.sh env did not print ${missing.join(', ')}`);
  return {
    brokers: env.KAFKA_BROKERS,
    saslBrokers: env.KAFKA_SASL_BROKERS,
    caFile: env.KAFKA_CA_FILE,
    collectionsPassword: env.KAFKA_COLLECTIONS_PASSWORD,
    catalogPassword: env.KAFKA_CATALOG_PASSWORD,
  };
}

export async function elasticsearchUrl(root: string): Promise<string> {
  return script(root, 'elasticsearch.sh', ['url', ELASTICSEARCH_MAJOR], 30_000);
}

/** Starts Elasticsearch 9 and Kafka unless they run (the scripts are idempotent), and reads their addresses. */
export async function startLocalServers(root: string): Promise<LocalServers> {
  // One after the other: two JVMs starting at once on a small machine slow each other past their own timeouts.
  await script(root, 'elasticsearch.sh', ['start', ELASTICSEARCH_MAJOR], 300_000);
  await script(root, 'kafka.sh', ['start'], 300_000);
  return { elasticsearchUrl: await elasticsearchUrl(root), kafka: await kafkaServer(root) };
}

/** Stops both servers (their data stays). */
export async function stopLocalServers(root: string): Promise<void> {
  await script(root, 'elasticsearch.sh', ['stop', ELASTICSEARCH_MAJOR], 120_000);
  await script(root, 'kafka.sh', ['stop'], 120_000);
}

/** Stops and starts a server (the fault suite's restarts). */
export async function restartServer(root: string, server: 'elasticsearch' | 'kafka'): Promise<void> {
  const args = server === 'elasticsearch' ? [ELASTICSEARCH_MAJOR] : [];
  await script(root, `${server}.sh`, ['stop', ...args], 120_000);
  await script(root, `${server}.sh`, ['start', ...args], 300_000);
}
