/**
 * Turns the admin CLI's arguments into what to send, without any I/O, so the
 * whole command surface is unit-tested. Each command maps to one operation of
 * the admin API (docs/api.md "The admin surface", docs/trust.md), named as
 * the admin client's table names it, except `skills import`, which streams a
 * file, and `reindex`, which starts or takes a job and polls it until it ends.
 */
import { parseArgs } from 'node:util';
import { WORKSPACE_ROLES } from '@skills/common/workspace-roles';
import type { AdminOperationName } from '@skills/client';

export type AdminAction =
  | { kind: 'help' }
  /** one admin operation; the CLI prints the answer's `data` */
  | {
      kind: 'call';
      operation: AdminOperationName;
      params?: Record<string, string>;
      query?: Record<string, string>;
      body?: Record<string, unknown>;
    }
  | { kind: 'import'; file: string }
  /** no jobId: start a reindex; either way follow the job until it ends */
  | { kind: 'reindex'; jobId?: string };

export interface ParsedCommand {
  /** gateway URL given with --url */
  url?: string;
  action: AdminAction;
}

/** A command line the CLI cannot act on; the message says what to fix. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  accounts create --email <email> --plan <free|pro|team> [--name <name>]
  accounts show <accountId>
  accounts set-plan <accountId> <free|pro|team>
  accounts sign-in-link <accountId>             a one-time console sign-in link (1 h)
  accounts reset-link <accountId>               a one-time password reset link (1 h)
  accounts sign-out <accountId>                 ends every console session of the account
  invitations create                            a one-time sign-up link (7 days; SIGNUP_MODE=invite)
  keys list <accountId>
  keys create <accountId> [--name <name>] [--scopes a,b] [--expires-in-days <n|never>]
                                                 prints the new key once; default: every scope
  keys revoke <keyId>
  keys roll <keyId> [--grace-seconds <n>]        a new key with the same name and scopes; the
                                                 old one stays valid n seconds (default 0)
  skills put <slug> --name <n> --description <d> --type <skill|plugin> --category <c>
             [--status <active|draft|archived>] [--tags a,b,c]
  skills delete <slug>
  skills import <file.ndjson>                   one item per line: slug plus the put fields
  private-skills create <accountId> --name <n> [--description <d>]
  workspaces create --name <name> --owner <accountId>
  members set <workspaceId> <accountId> <${WORKSPACE_ROLES.join('|')}>
  members remove <workspaceId> <accountId>       the last owner cannot be removed
  audit [--action <action>] [--account <accountId>] [--limit <n>] [--before <id>]
                                                 the audit trail, newest first; pass the answer's
                                                 nextBefore as --before for the next page
  scanner-create <name>                          a scanner credential (1-64 of a-z0-9-): prints its
                                                 sks_ token once
  scanners                                       every scanner credential, revoked ones too
  scanner-revoke <scannerId>                     refused from the next request on
  publisher-verify <name> [--unverify] [--note <text>]
                                                 mark a publisher verified (or no longer)
  verdict-override <slug> <version> <clean|suspicious|malicious> --note <text>
  verdict-clear <slug> <version>                 the scans decide the verdict again
  yank <slug> <version> --reason <text>          out of "latest", still readable by version
  reports [--status <open|resolved|dismissed>] [--page <n>]
                                                 the reports queue, newest first
  report-resolve <reportId> --note <text>
  report-dismiss <reportId> --note <text>
  reindex [jobId]                                rebuild the search index and follow the job until it
                                                 ends: progress on stderr, the job on stdout, exit 1 if
                                                 it failed; with a job id: follow that job.
                                                 Ctrl-C stops following, not the job

Options:
  --url <url>   gateway URL (default: $GATEWAY_URL or http://127.0.0.1:8080)
  -h, --help    this text

The admin token is read from $ADMIN_TOKEN, else from $DATA_DIR/admin-token
(DATA_DIR defaults to .data), the file npm start writes.`;

const OPTIONS = {
  url: { type: 'string' },
  email: { type: 'string' },
  plan: { type: 'string' },
  name: { type: 'string' },
  description: { type: 'string' },
  type: { type: 'string' },
  category: { type: 'string' },
  status: { type: 'string' },
  tags: { type: 'string' },
  owner: { type: 'string' },
  scopes: { type: 'string' },
  'expires-in-days': { type: 'string' },
  'grace-seconds': { type: 'string' },
  action: { type: 'string' },
  account: { type: 'string' },
  limit: { type: 'string' },
  before: { type: 'string' },
  unverify: { type: 'boolean' },
  note: { type: 'string' },
  reason: { type: 'string' },
  page: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

function required(values: Values, name: keyof Values, command: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`${command}: --${name} is required`);
  return value;
}

function positionals(args: string[], count: number, names: string[], command: string): string[] {
  if (args.length < count) throw new UsageError(`${command}: missing <${names[args.length]}>`);
  if (args.length > count) throw new UsageError(`${command}: unexpected argument "${args[count]}"`);
  return args;
}

function wholeNumber(value: string, option: string, command: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`${command}: ${option} must be a whole number`);
  return Number(value);
}

/** One operation of the admin client's table, with what goes into its path, query and body. */
function call(
  operation: AdminOperationName,
  parts: Omit<Extract<AdminAction, { kind: 'call' }>, 'kind' | 'operation'> = {},
): AdminAction {
  return { kind: 'call', operation, ...parts };
}

/** Copies the options that are present, so absent ones are not sent as undefined. */
function present(values: Values, names: Array<keyof Values>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) if (values[name] !== undefined) out[name] = values[name];
  return out;
}

function toAction(group: string, verb: string | undefined, args: string[], v: Values): AdminAction {
  const command = verb ? `${group} ${verb}` : group;
  switch (command) {
    case 'accounts create':
      positionals(args, 0, [], command);
      return call('adminCreateAccount', {
        body: { email: required(v, 'email', command), plan: required(v, 'plan', command), ...present(v, ['name']) },
      });
    case 'accounts show': {
      const [id] = positionals(args, 1, ['accountId'], command) as [string];
      return call('adminGetAccount', { params: { id } });
    }
    case 'accounts set-plan': {
      const [id, plan] = positionals(args, 2, ['accountId', 'plan'], command) as [string, string];
      return call('adminUpdateAccount', { params: { id }, body: { plan } });
    }
    case 'accounts sign-in-link':
    case 'accounts reset-link': {
      const [id] = positionals(args, 1, ['accountId'], command) as [string];
      const purpose = verb === 'reset-link' ? 'password-reset' : 'sign-in';
      return call('adminCreateLink', { params: { id }, body: { purpose } });
    }
    case 'accounts sign-out': {
      const [id] = positionals(args, 1, ['accountId'], command) as [string];
      return call('adminSignOutEverywhere', { params: { id } });
    }
    case 'invitations create':
      positionals(args, 0, [], command);
      return call('adminCreateInvitation');
    case 'keys list': {
      const [id] = positionals(args, 1, ['accountId'], command) as [string];
      return call('adminListApiKeys', { params: { id } });
    }
    case 'keys create': {
      const [id] = positionals(args, 1, ['accountId'], command) as [string];
      const body = present(v, ['name']);
      if (v.scopes !== undefined)
        body.scopes = v.scopes
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
      const days = v['expires-in-days'];
      if (days !== undefined)
        body.expiresInDays = days === 'never' ? null : wholeNumber(days, '--expires-in-days', command);
      return call('adminCreateApiKey', { params: { id }, body });
    }
    case 'keys roll': {
      const [id] = positionals(args, 1, ['keyId'], command) as [string];
      const grace = v['grace-seconds'];
      const graceSeconds = grace === undefined ? 0 : wholeNumber(grace, '--grace-seconds', command);
      return call('adminRollApiKey', { params: { keyId: id }, body: { graceSeconds } });
    }
    case 'keys revoke': {
      const [id] = positionals(args, 1, ['keyId'], command) as [string];
      return call('adminRevokeApiKey', { params: { keyId: id } });
    }
    case 'skills put': {
      const [slug] = positionals(args, 1, ['slug'], command) as [string];
      const body: Record<string, unknown> = {
        name: required(v, 'name', command),
        description: required(v, 'description', command),
        type: required(v, 'type', command),
        category: required(v, 'category', command),
        ...present(v, ['status']),
      };
      if (v.tags !== undefined)
        body.tags = v.tags
          .split(',')
          .map((t) => t.trim())
          .filter((t) => t !== '');
      return call('adminPutSkill', { params: { slug }, body });
    }
    case 'skills delete': {
      const [slug] = positionals(args, 1, ['slug'], command) as [string];
      return call('adminDeleteSkill', { params: { slug } });
    }
    case 'skills import': {
      const [file] = positionals(args, 1, ['file.ndjson'], command) as [string];
      return { kind: 'import', file };
    }
    case 'private-skills create': {
      const [id] = positionals(args, 1, ['accountId'], command) as [string];
      return call('adminCreatePrivateSkill', {
        params: { id },
        body: { name: required(v, 'name', command), ...present(v, ['description']) },
      });
    }
    case 'workspaces create':
      positionals(args, 0, [], command);
      return call('adminCreateWorkspace', {
        body: { name: required(v, 'name', command), ownerAccountId: required(v, 'owner', command) },
      });
    case 'members set': {
      const [ws, account, role] = positionals(args, 3, ['workspaceId', 'accountId', 'role'], command) as [
        string,
        string,
        string,
      ];
      return call('adminSetWorkspaceMember', { params: { id: ws, accountId: account }, body: { role } });
    }
    case 'members remove': {
      const [ws, account] = positionals(args, 2, ['workspaceId', 'accountId'], command) as [string, string];
      return call('adminRemoveWorkspaceMember', { params: { id: ws, accountId: account } });
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** The one-word commands of releases, verdicts, publishers, reports and scanners (docs/trust.md). */
function trustAction(command: string, args: string[], v: Values): AdminAction | undefined {
  switch (command) {
    case 'scanner-create': {
      const [name] = positionals(args, 1, ['name'], command) as [string];
      return call('adminCreateScanner', { body: { name } });
    }
    case 'scanners':
      positionals(args, 0, [], command);
      return call('adminListScanners');
    case 'scanner-revoke': {
      const [id] = positionals(args, 1, ['scannerId'], command) as [string];
      return call('adminRevokeScanner', { params: { id } });
    }
    case 'publisher-verify': {
      const [name] = positionals(args, 1, ['name'], command) as [string];
      return call('adminSetPublisher', {
        params: { name },
        body: { verified: v.unverify !== true, ...present(v, ['note']) },
      });
    }
    case 'verdict-override': {
      const [slug, version, verdict] = positionals(args, 3, ['slug', 'version', 'verdict'], command) as [
        string,
        string,
        string,
      ];
      return call('adminOverrideVerdict', {
        params: { slug, version },
        body: { verdict, note: required(v, 'note', command) },
      });
    }
    case 'verdict-clear': {
      const [slug, version] = positionals(args, 2, ['slug', 'version'], command) as [string, string];
      return call('adminClearVerdictOverride', { params: { slug, version } });
    }
    case 'yank': {
      const [slug, version] = positionals(args, 2, ['slug', 'version'], command) as [string, string];
      return call('adminYankRelease', { params: { slug, version }, body: { reason: required(v, 'reason', command) } });
    }
    case 'reports': {
      positionals(args, 0, [], command);
      return call('adminListReports', { query: present(v, ['status', 'page', 'limit']) as Record<string, string> });
    }
    case 'report-resolve':
    case 'report-dismiss': {
      const [id] = positionals(args, 1, ['reportId'], command) as [string];
      return call(command === 'report-resolve' ? 'adminResolveReport' : 'adminDismissReport', {
        params: { id },
        body: { note: required(v, 'note', command) },
      });
    }
    default:
      return undefined;
  }
}

/** The audit trail with the filters given (the API validates them). */
function auditQuery(v: Values): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [option, param] of [
    ['action', 'action'],
    ['account', 'accountId'],
    ['limit', 'limit'],
    ['before', 'before'],
  ] as const) {
    const value = v[option];
    if (value !== undefined) query[param] = value;
  }
  return query;
}

/** Parses `argv` (without `node script`); throws UsageError on a bad command line. */
export function parseAdminArgs(argv: string[]): ParsedCommand {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values } = parsed;
  const [group, ...rest] = parsed.positionals;
  if (values.help || group === undefined || group === 'help') return { url: values.url, action: { kind: 'help' } };
  if (group === 'audit') {
    positionals(rest, 0, [], group);
    return { url: values.url, action: call('adminListAuditEvents', { query: auditQuery(values) }) };
  }
  if (group === 'reindex') {
    if (rest.length === 0) return { url: values.url, action: { kind: 'reindex' } };
    const [jobId] = positionals(rest, 1, ['jobId'], group) as [string];
    return { url: values.url, action: { kind: 'reindex', jobId } };
  }
  const trust = trustAction(group, rest, values);
  if (trust) return { url: values.url, action: trust };
  const [verb, ...args] = rest;
  return { url: values.url, action: toAction(group, verb, args, values) };
}
