/**
 * The audit trail: who did what, when, under which request id, to which
 * account or object. Records never hold a secret (no key, token, hash or
 * body): a key appears by its id and display prefix only.
 */

/** What an audit record says happened. */
export const AUDIT_ACTIONS = [
  'account.create',
  'account.plan_change',
  'api_key.issue',
  'api_key.revoke',
  'api_key.roll',
  'workspace.create',
  'workspace.member_set',
  'workspace.member_remove',
  'workspace.invitation_create',
  'workspace.invitation_revoke',
  'workspace.invitation_accept',
  'workspace.policy_set',
  'collection.pins_update',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.test',
  'skill.put',
  'skill.delete',
  'skill.import',
  'private_skill.create',
  'reindex.start',
  'scanner.create',
  'scanner.revoke',
  'verdict.record',
  'release.publish',
  'release.yank',
  'release.unyank',
  'verdict.override',
  'verdict.override_clear',
  'publisher.verify',
  'report.create',
  'report.resolve',
  'report.dismiss',
  'auth.failure',
  'auth.sign_up',
  'auth.sign_in',
  'auth.sign_out',
  'auth.password_reset_request',
  'auth.password_reset',
  'auth.password_change',
  'auth.reauthenticate',
  'auth.oidc_link',
  'auth.oidc_unlink',
  'auth.link_issue',
  'auth.email_verify',
  'auth.session_end',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditActor =
  | { kind: 'admin' }
  | { kind: 'account'; accountId: string }
  /** a scanner credential (docs/trust.md), by its id: it records verdicts */
  | { kind: 'scanner'; scannerId: string }
  | { kind: 'anonymous' };

/** Who acts and under which request: what the HTTP layer hands the rules. */
export interface AuditContext {
  actor: AuditActor;
  requestId: string;
  clientAddress: string;
}

export type AuditDetails = Record<string, string | number | boolean | null>;

export interface AuditEvent extends AuditContext {
  action: AuditAction;
  /** the account the action concerns, when there is one */
  targetAccountId?: string | null;
  /** the object acted on: a key id, a slug, a workspace id… */
  target?: string | null;
  details?: AuditDetails;
}

export interface AuditRecord extends AuditEvent {
  /** increasing; also the paging cursor */
  id: string;
  /** ISO-8601 */
  at: string;
}

export interface AuditQuery {
  action?: AuditAction;
  /** records whose actor or target is this account */
  accountId?: string;
  /** only records older than this id (the previous page's last) */
  before?: string;
  limit: number;
}

/** `gateway.audit_events`; writes take part in the caller's transaction when bound to one. */
export interface AuditLog {
  append(event: AuditEvent): Promise<void>;
  /** newest first */
  list(query: AuditQuery): Promise<AuditRecord[]>;
  /** deletes at most `batch` records older than `cutoff`; returns how many */
  pruneOlderThan(cutoff: Date, batch: number): Promise<number>;
}
