/**
 * The environments of the distributed topology's processes, read from
 * docker-compose.yml and pointed at this machine: compose's hosts become
 * loopback addresses, its volumes local files, its database and roles this
 * run's own. Nothing is added that compose does not set except the listen
 * port and the process name the image's entrypoint exports, so a variable
 * added to compose reaches the local run, and a host or volume the mapping
 * does not know stops the launcher instead of being passed on unresolved.
 */
import { readCompose, type ComposeFile } from './compose-file';

/** The compose services the launcher runs, as processes of the image's entrypoint. */
export const RUN_SERVICES = ['principal-keys', 'migrate', 'collections-service', 'catalog-service', 'gateway'] as const;
export type RunService = (typeof RUN_SERVICES)[number];

/** What `deploy/docker/entrypoint.sh` execs for each command (a test keeps the two in step). */
export const ENTRY_POINTS: Readonly<Record<RunService, string>> = {
  'principal-keys': 'standalone/dist/cli/principal-keys-command.js',
  migrate: 'standalone/dist/migrate.js',
  'collections-service': 'collections-service/dist/main.js',
  'catalog-service': 'catalog-service/dist/main.js',
  gateway: 'gateway/dist/main.js',
};

/** Compose's Postgres login roles (deploy/docker/postgres/roles.sh). */
export const COMPOSE_ROLES = {
  owner: 'skills_owner',
  gateway: 'skills_gateway',
  collections: 'skills_collections',
  catalog: 'skills_catalog',
} as const;
export type RoleNames = Record<keyof typeof COMPOSE_ROLES, string>;

export interface LocalTopology {
  /** the run's database on the local server, as its superuser (the roles replace the user) */
  databaseUrl: string;
  roles: RoleNames;
  elasticsearchUrl: string;
  /** the run's alias (compose's `skills`), so runs never share an index */
  elasticsearchIndex: string;
  kafka: { saslBrokers: string; caFile: string; collectionsPassword: string; catalogPassword: string };
  /** where compose's two principal key volumes live on this machine */
  principalSigningDir: string;
  principalPublicDir: string;
  /** the secrets compose reads from .env */
  adminToken: string;
  itemsReaderToken: string;
  logLevel: string;
  /** loopback ports: catalog-service is the replicas' balancer (compose's service name) */
  ports: { gateway: number; gatewayMetrics: number; collections: number; catalog: number };
}

export class ComposeDriftError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ComposeDriftError';
  }
}

/** The .env compose would read: secrets of this run; Postgres passwords are unused on a trust-auth local server but compose requires them. */
function dotEnv(local: LocalTopology): Record<string, string> {
  const unusedPassword = 'local-trust-auth-password-unused';
  return {
    LOG_LEVEL: local.logLevel,
    ADMIN_TOKEN: local.adminToken,
    ITEMS_READER_TOKEN: local.itemsReaderToken,
    KAFKA_COLLECTIONS_PASSWORD: local.kafka.collectionsPassword,
    KAFKA_CATALOG_PASSWORD: local.kafka.catalogPassword,
    POSTGRES_PASSWORD: unusedPassword,
    POSTGRES_OWNER_PASSWORD: unusedPassword,
    POSTGRES_GATEWAY_PASSWORD: unusedPassword,
    POSTGRES_COLLECTIONS_PASSWORD: unusedPassword,
    POSTGRES_CATALOG_PASSWORD: unusedPassword,
  };
}

/** A compose Postgres URL (`postgres://<role>:<pw>@postgres:5432/skills`) on the local server, as the run's role. */
function localDatabaseUrl(value: string, local: LocalTopology): string {
  const composed = new URL(value);
  const role = Object.entries(COMPOSE_ROLES).find(([, name]) => name === composed.username)?.[0] as
    keyof RoleNames | undefined;
  if (composed.hostname !== 'postgres' || !role)
    throw new ComposeDriftError(
      `a database URL the launcher cannot map (role ${composed.username}, host ${composed.hostname})`,
    );
  const url = new URL(local.databaseUrl);
  url.username = local.roles[role];
  url.password = '';
  return url.toString();
}

/** Each known compose value and what it is on this machine; a value not listed passes through when it names no compose host or volume. */
function valueMap(local: LocalTopology): Array<[RegExp, (match: string) => string]> {
  const http = (port: number) => `http://127.0.0.1:${port}`;
  return [
    [/^postgres:\/\/.*@postgres:5432\/skills$/, (v) => localDatabaseUrl(v, local)],
    [/^http:\/\/elasticsearch:9200$/, () => local.elasticsearchUrl],
    [/^kafka:9092$/, () => local.kafka.saslBrokers],
    [/^http:\/\/collections-service:8082$/, () => http(local.ports.collections)],
    [/^http:\/\/catalog-service:8081$/, () => http(local.ports.catalog)],
    [/^\/var\/lib\/skills\/kafka-ca\/ca\.crt$/, () => local.kafka.caFile],
    [
      /^\/var\/lib\/skills\/principal-signing\//,
      (v) => v.replace('/var/lib/skills/principal-signing', local.principalSigningDir),
    ],
    [
      /^\/var\/lib\/skills\/principal-public\//,
      (v) => v.replace('/var/lib/skills/principal-public', local.principalPublicDir),
    ],
  ];
}

/** Values that only make sense for one variable. */
function byName(name: string, value: string, local: LocalTopology): string | undefined {
  if (name === 'ELASTICSEARCH_INDEX') return local.elasticsearchIndex;
  if (name.endsWith('_DB_ROLE')) {
    const role = Object.entries(COMPOSE_ROLES).find(([, composeName]) => composeName === value)?.[0] as
      keyof RoleNames | undefined;
    if (!role) throw new ComposeDriftError(`${name}=${value} is not one of compose's roles`);
    return local.roles[role];
  }
  return undefined;
}

/** Ports per service: compose's fixed ones become free loopback ports. */
function ports(service: RunService, local: LocalTopology): Record<string, string> {
  switch (service) {
    case 'gateway':
      // compose's PUBLIC_URL names its published port; browsers reach this run on the free one
      return {
        PORT: String(local.ports.gateway),
        METRICS_PORT: String(local.ports.gatewayMetrics),
        PUBLIC_URL: `http://127.0.0.1:${local.ports.gateway}`,
      };
    case 'collections-service':
      return { PORT: String(local.ports.collections) };
    default:
      return {};
  }
}

/**
 * The environment of each process, from `compose`. catalog-service's PORT
 * is left to the caller: each replica listens on its own port behind the
 * balancer that holds `ports.catalog`.
 */
export function topologyEnvironments(
  compose: ComposeFile,
  local: LocalTopology,
): Record<RunService, Record<string, string>> {
  const hostNames = Object.keys(compose.services);
  const unresolved = new RegExp(
    `(^|[/@])(${hostNames.map((h) => h.replace(/[-.]/g, '\\$&')).join('|')}):\\d+|/var/lib/skills`,
  );
  const values = valueMap(local);
  const out = {} as Record<RunService, Record<string, string>>;
  for (const service of RUN_SERVICES) {
    const definition = compose.services[service];
    if (!definition) throw new ComposeDriftError(`docker-compose.yml has no service ${service}`);
    const env: Record<string, string> = { SKILLS_PROCESS: service };
    for (const [name, raw] of Object.entries(definition.environment ?? {})) {
      const value = String(raw ?? '');
      const known = values.find(([pattern]) => pattern.test(value));
      const mapped = byName(name, value, local) ?? (known ? known[1](value) : value);
      if (unresolved.test(mapped)) {
        throw new ComposeDriftError(
          `${service}: ${name} names a compose host or volume the launcher does not map (${mapped.replace(/\/\/[^@/]*@/, '//…@')})`,
        );
      }
      env[name] = mapped;
    }
    out[service] = { ...env, ...ports(service, local) };
  }
  return out;
}

/** docker-compose.yml read with this run's .env, then mapped. */
export function readTopologyEnvironments(
  composeFile: string,
  local: LocalTopology,
): Record<RunService, Record<string, string>> {
  return topologyEnvironments(readCompose(composeFile, dotEnv(local)), local);
}
