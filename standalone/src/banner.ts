/**
 * What `npm start` prints once the stack is up: a human block, then one
 * `READY {json}` line that scripts and the end-to-end tests parse.
 */
import type { RunningStack } from './launcher';

export const READY_PREFIX = 'READY ';

/** The machine-readable line's fields. */
export interface ReadyInfo {
  url: string;
  /** the gateway's monitoring listener: /metrics and the live /readyz */
  metricsUrl: string;
  adminToken: string;
  apiKey: string;
  keyId: string;
  /** the web console */
  consoleUrl: string;
  /** signs the demo account in to the console, once, within an hour */
  signInLink: string;
  accountId: string;
  workspaceId: string;
  collectionId: string;
  database: 'embedded' | 'external';
  seeded: boolean;
  startupMs: number;
}

export function readyInfo(stack: RunningStack): ReadyInfo {
  const { demo } = stack;
  return {
    url: stack.gatewayUrl,
    metricsUrl: stack.metricsUrl,
    adminToken: stack.adminToken.token,
    apiKey: demo.apiKey,
    keyId: demo.keyId,
    consoleUrl: `${stack.gatewayUrl}/console/`,
    signInLink: demo.signInLink,
    accountId: demo.accountId,
    workspaceId: demo.workspaceId,
    collectionId: demo.collectionId,
    database: stack.database,
    seeded: demo.seeded,
    startupMs: stack.startupMs,
  };
}

export function banner(stack: RunningStack): string {
  const info = readyInfo(stack);
  const token =
    stack.adminToken.origin === 'env'
      ? '(from ADMIN_TOKEN)'
      : `${info.adminToken}   (saved in ${stack.adminToken.file})`;
  const { imported } = stack.demo;
  const seeded = !stack.demo.seeded
    ? 'demo data already present'
    : imported !== undefined
      ? `loaded the sample catalog (${imported} items) and created the demo data`
      : 'created the demo data';
  return [
    '',
    `Skills Catalog is running (${stack.topology ?? (info.database === 'embedded' ? 'embedded Postgres' : 'DATABASE_URL')}; ${seeded}; ready in ${info.startupMs} ms)`,
    '',
    `  Gateway URL        ${info.url}`,
    `  Console            ${info.consoleUrl}`,
    `  Demo sign-in link  ${info.signInLink}`,
    '                     (works once, within an hour; the demo account has no password)',
    `  Metrics            ${info.metricsUrl}/metrics   (not on the gateway's port)`,
    `  Admin token        ${token}`,
    `  Demo API key       ${info.apiKey}   (new on every start, the previous one revoked; plan pro)`,
    `  Demo account id    ${info.accountId}`,
    `  Demo workspace id  ${info.workspaceId}`,
    `  Demo collection id ${info.collectionId}`,
    '',
    'Try it:',
    `  curl -s -H "Authorization: Bearer ${info.apiKey}" "${info.url}/api/v1/skills?q=docker&limit=5"`,
    '',
    'Shell variables for the examples (README, docs/getting-started.md):',
    `  KEY=${info.apiKey} WS=${info.workspaceId} COL=${info.collectionId}`,
    '',
    `Admin CLI: npm run admin -- --help        Stop: Ctrl-C${stack.topology ? ' (stops the services; Elasticsearch and Kafka keep running: local-servers/elasticsearch.sh stop 9, local-servers/kafka.sh stop)' : ''}`,
    '',
    `${READY_PREFIX}${JSON.stringify(info)}`,
    '',
  ].join('\n');
}
