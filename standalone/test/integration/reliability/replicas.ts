/**
 * The production shape in miniature: two replicas of each service as real
 * processes over one database and one Redis. Replica n of the gateway talks
 * to replica n of each service, so a request's path through the deployment
 * is known: what one gateway wrote, the other side must see.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../e2e/helpers';
import { credentials, serviceProcesses, startDatabase, type Proc, type TestDatabaseProcess } from './processes';

export interface Replica {
  collections: Proc;
  catalog: Proc;
  gateway: Proc;
  client: Client;
}

export interface ReplicatedTopology {
  replicas: [Replica, Replica];
  dispose(): Promise<void>;
}

export interface ReplicatedOptions {
  redisUrl: string;
  /** the gateways' environment on top of the defaults, e.g. a small rate limit */
  gatewayEnv?: Record<string, string>;
}

export async function startReplicatedTopology(options: ReplicatedOptions): Promise<ReplicatedTopology> {
  const dataDir = await mkdtemp(join(tmpdir(), 'skills-replicas-'));
  const started: Proc[] = [];
  let db: TestDatabaseProcess | undefined;
  const dispose = async () => {
    for (const p of [...started].reverse()) await p.stop('SIGKILL');
    await db?.drop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  };
  const start = async (proc: Proc) => {
    started.push(proc);
    await proc.start(() => proc.serving());
  };
  try {
    db = await startDatabase(dataDir);
    const shared = { DATABASE_URL: db.databaseUrl, LOG_LEVEL: 'warn', REDIS_URL: options.redisUrl };
    const creds = await credentials(dataDir);
    const replicas: Replica[] = [];
    // One replica after the other: the first one's processes run the migrations.
    for (const n of [1, 2]) {
      const { collections, catalog, gateway } = await serviceProcesses({
        shared,
        credentials: creds,
        suffix: `-${n}`,
        gatewayEnv: options.gatewayEnv,
      });
      for (const proc of [collections, catalog, gateway]) await start(proc);
      replicas.push({ collections, catalog, gateway, client: new Client(`http://127.0.0.1:${gateway.port}`) });
    }
    return { replicas: replicas as [Replica, Replica], dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}
