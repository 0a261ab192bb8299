/**
 * Workspace invitations (docs/security.md), split between the two services by
 * what each owns: collections-service keeps the terms (workspace, role,
 * expiry, state) and the rules (owners and admins invite; accepting is one
 * transaction); the gateway keeps the secret, as a one-time invitation link
 * of the profile area (store/link.repository.ts), so the same link signs its
 * holder up where sign-up needs an invitation, and mails it when SMTP is on.
 */
import { InputError, NotAllowedError, UpstreamError, negotiateLanguage, type Logger } from '@skills/common';
import type { InvitableRole } from '@skills/common/workspace-roles';
import type { Mailer } from '../../mail/mailer';
import type { MailQuota } from '../limits/mail-quota';
import { linkTokenHash, newLinkToken } from '../sign-in/link-token';
import type { AccountRepository } from '../accounts/account';
import type { AuditContext, AuditLog } from '../audit/audit';
import type { LinkStore } from '../sign-in/credentials';
import type { Site } from '../site';
import { workspacePath, type Caller, type CollectionsCalls, type Outcome } from './collections-service';

/** Where an invitation link opens in the console; the secret travels in the fragment, which no server or Referer sees. */
export const INVITATION_PAGE = '/console/invitations#token=';

/** An invitation as collections-service answers it. */
export interface InvitationTerms {
  id: string;
  workspaceId: string;
  role: InvitableRole;
  email: string | null;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
}

/** Created: the terms, the link (shown this once: only its hash is kept) and whether it was mailed. */
export interface CreatedInvitation extends InvitationTerms {
  url: string;
  mailed: boolean;
}

export interface InvitationRequest {
  role: InvitationTerms['role'];
  email: string | null;
  expiresInDays: number;
}

export interface WorkspaceInvitationsDeps {
  calls: CollectionsCalls;
  links: LinkStore;
  site: Site;
  accounts: AccountRepository;
  audit: AuditLog;
  logger: Logger;
  /** none: invitations are handed over as links only */
  mailer?: Mailer;
  /** with `mailer`: invitation mails per workspace, and per address from the workspace, per day */
  mailQuota?: MailQuota;
  /** whether an account's address is verified: only such an account may accept */
  emailVerified: (accountId: string) => Promise<boolean>;
  now?: () => number;
}

const DAY_MS = 86_400_000;
const invitationPath = (invitationId: string) => `/api/v1/invitations/${encodeURIComponent(invitationId)}`;

/**
 * Whether collections-service still holds the invitation pending, with a
 * creator who may still invite with its role: the same read as the preview,
 * made by the gateway itself (admin) because the person signing up has no
 * account yet. A revocation collections-service made alone (its creator
 * removed or demoted) thus stops the link from signing anyone up, though
 * the gateway's link row is not used up. Fails closed: an answer other
 * than 2xx or 400 is an error, never a yes.
 */
export async function invitationStillPending(
  calls: CollectionsCalls,
  invitationId: string,
  requestId: string,
): Promise<boolean> {
  const preview = await calls.call({ principal: { kind: 'admin' }, requestId }, 'GET', invitationPath(invitationId));
  if (preview.ok) return true;
  if (preview.answer.status === 400) return false;
  throw new UpstreamError(502, 'upstream.badGateway');
}
type Workspace = { id: string; name: string };

export class WorkspaceInvitations {
  private readonly now: () => number;

  constructor(private readonly deps: WorkspaceInvitationsDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * collections-service checks the caller may invite and records the terms;
   * then the link is minted and stored with the same expiry. Should storing
   * it fail, the terms are revoked again (best effort): no invitation stays
   * pending that no link can accept.
   */
  async create(
    caller: Caller,
    context: AuditContext,
    workspaceId: string,
    request: InvitationRequest,
  ): Promise<Outcome<CreatedInvitation>> {
    const expiresAt = new Date(this.now() + request.expiresInDays * DAY_MS);
    const path = workspacePath(workspaceId, 'invitations');
    const created = await this.deps.calls.call<{ invitation: InvitationTerms }>(caller, 'POST', path, {
      role: request.role,
      email: request.email,
      expiresAt: expiresAt.toISOString(),
    });
    if (!created.ok) return created;
    const terms = created.value.invitation;
    // Counted once collections-service has said the caller may invite: a stranger cannot spend a workspace's quota.
    if (terms.email !== null && this.deps.mailer) {
      try {
        await this.deps.mailQuota?.takeWorkspace(workspaceId);
        await this.deps.mailQuota?.take('invitation', terms.email, `workspace:${workspaceId}`);
      } catch (err) {
        await this.deps.calls
          .call(caller, 'DELETE', workspacePath(workspaceId, 'invitations', terms.id))
          .catch(() => undefined);
        throw err;
      }
    }
    const { token, tokenHash } = newLinkToken();
    try {
      await this.deps.links.insert({
        tokenHash,
        purpose: 'invitation',
        accountId: null,
        now: new Date(this.now()),
        expiresAt,
        workspaceInvitationId: terms.id,
      });
    } catch (err) {
      await this.deps.calls
        .call(caller, 'DELETE', workspacePath(workspaceId, 'invitations', terms.id))
        .catch(() => undefined);
      throw err;
    }
    const url = this.deps.site.link(INVITATION_PAGE + token);
    await this.deps.audit.append({
      ...context,
      action: 'workspace.invitation_create',
      target: workspaceId,
      details: {
        invitationId: terms.id,
        role: terms.role,
        emailed: terms.email !== null && this.deps.mailer !== undefined,
      },
    });
    const mailed = terms.email !== null && (await this.mail(terms, url, caller.language));
    return { ok: true, value: { ...terms, url, mailed } };
  }

  /** Revokes the terms, then uses up the link, so it signs nobody up either. */
  async revoke(
    caller: Caller,
    context: AuditContext,
    workspaceId: string,
    invitationId: string,
  ): Promise<Outcome<{ revoked: true }>> {
    const revoked = await this.deps.calls.call<{ revoked: true }>(
      caller,
      'DELETE',
      workspacePath(workspaceId, 'invitations', invitationId),
    );
    if (!revoked.ok) return revoked;
    await this.deps.links.endWorkspaceInvitation(invitationId, new Date(this.now()));
    await this.deps.audit.append({
      ...context,
      action: 'workspace.invitation_revoke',
      target: workspaceId,
      details: { invitationId },
    });
    return revoked;
  }

  /** What the link offers (workspace, role, expiry); 400 for a link that names no live invitation. */
  async preview(caller: Caller, token: string): Promise<Outcome<unknown>> {
    const invitationId = await this.invitationOf(token);
    return this.deps.calls.call(caller, 'GET', invitationPath(invitationId));
  }

  /** Joins the workspace with the invited role; the link is used up with it. */
  async accept(
    caller: Caller,
    context: AuditContext,
    token: string,
  ): Promise<Outcome<{ workspace: Workspace & { role: string } }>> {
    const invitationId = await this.invitationOf(token);
    // An invitation goes to an address: whoever accepts it must have proven they hold theirs.
    if (caller.principal.kind !== 'account' || !(await this.deps.emailVerified(caller.principal.accountId)))
      throw new NotAllowedError('email.notVerified');
    const accepted = await this.deps.calls.call<{ workspace: Workspace & { role: string } }>(
      caller,
      'POST',
      `/api/v1/invitations/${encodeURIComponent(invitationId)}/accept`,
    );
    if (!accepted.ok) return accepted;
    await this.deps.links.endWorkspaceInvitation(invitationId, new Date(this.now()));
    const { workspace } = accepted.value;
    await this.deps.audit.append({
      ...context,
      action: 'workspace.invitation_accept',
      target: workspace.id,
      targetAccountId: context.actor.kind === 'account' ? context.actor.accountId : null,
      details: { invitationId, role: workspace.role },
    });
    return accepted;
  }

  private async invitationOf(token: string): Promise<string> {
    const tokenHash = linkTokenHash(token, 'invitation.invalid');
    const invitationId = await this.deps.links.workspaceInvitationOf(tokenHash, new Date(this.now()));
    if (invitationId === undefined) throw new InputError('invitation.invalid');
    return invitationId;
  }

  /** Mails the link; true once the SMTP server took it. A failure is logged and the inviter copies the link instead. */
  private async mail(terms: InvitationTerms, url: string, language: string | undefined): Promise<boolean> {
    const { mailer, logger } = this.deps;
    if (!mailer || terms.email === null) return false;
    try {
      // No workspace or inviter name: both are chosen by users, and the address is any the inviter typed.
      await mailer.sendWorkspaceInvitation(
        terms.email,
        { link: url, role: terms.role, expiresAt: terms.expiresAt },
        negotiateLanguage(language),
      );
      return true;
    } catch (err) {
      logger.error({ err, invitationId: terms.id }, 'could not send the invitation mail');
      return false;
    }
  }
}
