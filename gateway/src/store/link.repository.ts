import { QueryTypes, type Sequelize } from 'sequelize';
import type { LinkPurpose, LinkStore, NewLink, NewSignInFlow, SignInFlow } from '../domain/sign-in/credentials';
import type { PurgeTask } from '../domain/sign-in/periodic-purge';
import { consume } from './credential.repository';

/** One-time links and OpenID Connect flows in flight, each stored by the SHA-256 of its secret. */
export class LinkRepository implements LinkStore {
  constructor(private readonly sequelize: Sequelize) {}

  /** `workspaceInvitationId`: an invitation to a workspace (collections-service holds its terms); it also lets its holder sign up. */
  async insert(input: NewLink): Promise<void> {
    await this.sequelize.query(
      `INSERT INTO gateway.one_time_links (token_hash, purpose, account_id, created_at, expires_at, workspace_invitation_id, password_hash)
       VALUES (decode(:hash, 'hex'), :purpose, :accountId, :now, :expiresAt, :invitationId, :passwordHash)`,
      {
        replacements: {
          hash: input.tokenHash.toString('hex'),
          purpose: input.purpose,
          accountId: input.accountId,
          now: input.now,
          expiresAt: input.expiresAt,
          invitationId: input.workspaceInvitationId ?? null,
          passwordHash: input.passwordHash ?? null,
        },
      },
    );
  }

  /**
   * The workspace invitation an unexpired invitation link names, used or
   * not: signing up with the link (invite mode) uses it, and the person then
   * accepts with it. Whether the invitation is still pending is
   * collections-service's to say.
   */
  async workspaceInvitationOf(tokenHash: Buffer, now: Date): Promise<string | undefined> {
    const [row] = await this.sequelize.query<{ id: string }>(
      `SELECT workspace_invitation_id AS id FROM gateway.one_time_links
        WHERE token_hash = decode(:hash, 'hex') AND purpose = 'invitation' AND workspace_invitation_id IS NOT NULL AND expires_at > :now`,
      { replacements: { hash: tokenHash.toString('hex'), now }, type: QueryTypes.SELECT },
    );
    return row?.id;
  }

  /** Uses up the links of a workspace invitation (accepted or revoked): none of them signs anyone up any more. */
  async endWorkspaceInvitation(invitationId: string, now: Date): Promise<void> {
    await this.sequelize.query(
      `UPDATE gateway.one_time_links SET used_at = :now WHERE workspace_invitation_id = :invitationId AND used_at IS NULL`,
      {
        replacements: { invitationId, now },
      },
    );
  }

  /** The account of a live link, marking it used; undefined when unknown, used or expired. */
  consume(tokenHash: Buffer, purpose: LinkPurpose, now: Date): Promise<string | undefined> {
    return consume(this.sequelize, tokenHash, purpose, now);
  }

  /** The account of a live link, leaving it unused. */
  async peek(tokenHash: Buffer, purpose: LinkPurpose, now: Date): Promise<string | undefined> {
    const [row] = await this.sequelize.query<{ account_id: string | null }>(
      `SELECT account_id FROM gateway.one_time_links
        WHERE token_hash = decode(:hash, 'hex') AND purpose = :purpose AND used_at IS NULL AND expires_at > :now`,
      { replacements: { hash: tokenHash.toString('hex'), purpose, now }, type: QueryTypes.SELECT },
    );
    return row ? (row.account_id ?? '') : undefined;
  }

  /**
   * `linkAccountId`: a flow started from that account's session, to link the provider identity to it,
   * or with `reauthenticate` to prove again that the session's holder is that identity.
   */
  async insertFlow(input: NewSignInFlow): Promise<void> {
    await this.sequelize.query(
      `INSERT INTO gateway.oidc_flows (state_hash, code_verifier, nonce, expires_at, link_account_id, reauthenticate)
       VALUES (decode(:hash, 'hex'), :codeVerifier, :nonce, :expiresAt, :linkAccountId, :reauthenticate)`,
      {
        replacements: {
          hash: input.stateHash.toString('hex'),
          codeVerifier: input.codeVerifier,
          nonce: input.nonce,
          expiresAt: input.expiresAt,
          linkAccountId: input.linkAccountId ?? null,
          reauthenticate: input.reauthenticate ?? false,
        },
      },
    );
  }

  /** Takes a flow out (one use), with the expired ones; undefined when unknown or expired. */
  async takeFlow(stateHash: Buffer, now: Date): Promise<SignInFlow | undefined> {
    const rows = await this.sequelize.query<{
      code_verifier: string;
      nonce: string;
      expires_at: Date;
      mine: boolean;
      link_account_id: string | null;
      reauthenticate: boolean;
    }>(
      `DELETE FROM gateway.oidc_flows WHERE state_hash = decode(:hash, 'hex') OR expires_at <= :now
       RETURNING code_verifier, nonce, expires_at, link_account_id, reauthenticate, state_hash = decode(:hash, 'hex') AS mine`,
      { replacements: { hash: stateHash.toString('hex'), now }, type: QueryTypes.SELECT },
    );
    const row = rows.find((r) => r.mine && new Date(r.expires_at).getTime() > now.getTime());
    return row
      ? {
          codeVerifier: row.code_verifier,
          nonce: row.nonce,
          linkAccountId: row.link_account_id,
          reauthenticate: row.reauthenticate,
        }
      : undefined;
  }

  /**
   * Deletes up to `batch` links that can no longer be used: expired, or used
   * before `usedBefore`. A used workspace invitation link stays until it
   * expires: signing up uses it, and its holder then accepts with it.
   */
  async deleteDeadLinks(now: Date, usedBefore: Date, batch: number): Promise<number> {
    const rows = await this.sequelize.query(
      `DELETE FROM gateway.one_time_links WHERE token_hash IN (
         SELECT token_hash FROM gateway.one_time_links
          WHERE expires_at <= :now OR (used_at <= :usedBefore AND workspace_invitation_id IS NULL)
          LIMIT :batch)
       RETURNING 1`,
      { replacements: { now, usedBefore, batch }, type: QueryTypes.SELECT },
    );
    return rows.length;
  }

  /** Deletes up to `batch` OpenID Connect flows past their expiry (abandoned at the provider). */
  async deleteExpiredFlows(now: Date, batch: number): Promise<number> {
    const rows = await this.sequelize.query(
      `DELETE FROM gateway.oidc_flows WHERE state_hash IN (
         SELECT state_hash FROM gateway.oidc_flows WHERE expires_at <= :now LIMIT :batch)
       RETURNING 1`,
      { replacements: { now, batch }, type: QueryTypes.SELECT },
    );
    return rows.length;
  }
}

/** How long a used link is kept: someone asking why their link did not work can still be shown it was used, and when. */
export const USED_LINK_KEPT_MS = 24 * 60 * 60 * 1000;

/** The purge tasks of the links and flows (domain/sign-in/periodic-purge.ts). */
export function linkPurgeTasks(links: LinkRepository): PurgeTask[] {
  return [
    {
      name: 'one-time links expired or used',
      deleteBatch: (now, batch) => links.deleteDeadLinks(now, new Date(now.getTime() - USED_LINK_KEPT_MS), batch),
    },
    { name: 'OpenID Connect flows expired', deleteBatch: (now, batch) => links.deleteExpiredFlows(now, batch) },
  ];
}
