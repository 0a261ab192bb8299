import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { ConflictError, isUniqueViolation, type Plan } from '@skills/common';
import type { Account } from '../domain/accounts/account';
import type { AuditEvent } from '../domain/audit/audit';
import type {
  CredentialStore,
  LinkPurpose,
  NewAccount,
  PendingVerification,
  Proven,
  RecordOf,
  Removals,
} from '../domain/sign-in/credentials';
import { SequelizeAuditLog } from './audit.repository';
import { endAccountLinks, removeCredentials } from './credential-removals';

interface AccountRow {
  id: string;
  email: string;
  name: string | null;
  plan: Plan;
  password_hash: string | null;
  email_verified: boolean;
}

const toAccount = (row: AccountRow): Account => ({ id: row.id, email: row.email, name: row.name, plan: row.plan });

/**
 * What signing in reads and writes in `gateway.accounts` and
 * `gateway.oidc_identities`; the writes that must agree with a one-time link
 * (sign-up by invitation, password reset) consume it in the same transaction.
 * A write given an audit record commits with it or not at all: the trail
 * never says an account was created, reset or linked when it was not.
 */

export class CredentialRepository implements CredentialStore {
  constructor(private readonly sequelize: Sequelize) {}

  async findByEmail(
    email: string,
  ): Promise<{ account: Account; passwordHash: string | null; emailVerified: boolean } | undefined> {
    const [row] = await this.sequelize.query<AccountRow>(
      `SELECT id, email, name, plan, password_hash, email_verified_at IS NOT NULL AS email_verified FROM gateway.accounts WHERE lower(email) = lower(:email)`,
      { replacements: { email }, type: QueryTypes.SELECT },
    );
    return row
      ? { account: toAccount(row), passwordHash: row.password_hash, emailVerified: row.email_verified }
      : undefined;
  }

  async emailVerified(accountId: string): Promise<boolean> {
    const [row] = await this.sequelize.query<{ verified: boolean }>(
      `SELECT email_verified_at IS NOT NULL AS verified FROM gateway.accounts WHERE id = :accountId`,
      { replacements: { accountId }, type: QueryTypes.SELECT },
    );
    return row?.verified === true;
  }

  async pendingVerification(tokenHash: Buffer, now: Date): Promise<PendingVerification | undefined> {
    const [row] = await this.sequelize.query<{
      account_id: string;
      email: string;
      link_hash: string | null;
      account_hash: string | null;
    }>(
      `SELECT a.id AS account_id, a.email, l.password_hash AS link_hash, a.password_hash AS account_hash
         FROM gateway.one_time_links l JOIN gateway.accounts a ON a.id = l.account_id
        WHERE l.token_hash = decode(:hash, 'hex') AND l.purpose = 'email-verification' AND l.used_at IS NULL AND l.expires_at > :now
          AND a.email_verified_at IS NULL`,
      { replacements: { hash: tokenHash.toString('hex'), now }, type: QueryTypes.SELECT },
    );
    return (
      row && {
        accountId: row.account_id,
        email: row.email,
        linkPasswordHash: row.link_hash,
        accountPasswordHash: row.account_hash,
      }
    );
  }

  async verifyEmail(
    tokenHash: Buffer,
    now: Date,
    audit: { record: RecordOf; removal: Removals['audit'] },
  ): Promise<Proven | undefined> {
    return this.sequelize.transaction(async (transaction) => {
      // Only while the address is unverified: a link issued before the proof never acts after it.
      const [link] = await this.sequelize.query<{ account_id: string; password_hash: string | null }>(
        `UPDATE gateway.one_time_links l SET used_at = :now FROM gateway.accounts a
          WHERE l.token_hash = decode(:hash, 'hex') AND l.purpose = 'email-verification' AND l.used_at IS NULL AND l.expires_at > :now
            AND a.id = l.account_id AND a.email_verified_at IS NULL
          RETURNING l.account_id, l.password_hash`,
        { replacements: { hash: tokenHash.toString('hex'), now }, type: QueryTypes.SELECT, transaction },
      );
      if (!link) return undefined;
      const accountId = link.account_id;
      // The sign-up this link confirms chose the password; whatever anyone made with another one before is removed.
      await this.sequelize.query(
        `UPDATE gateway.accounts SET email_verified_at = :now, password_hash = coalesce(:passwordHash, password_hash), updated_at = now() WHERE id = :accountId`,
        { replacements: { now, accountId, passwordHash: link.password_hash }, transaction },
      );
      const revokedKeyIds = await removeCredentials(
        this.sequelize,
        accountId,
        { keepSessionId: null, revokeKeys: true, unlinkIdentities: true, audit: audit.removal },
        transaction,
      );
      await endAccountLinks(this.sequelize, accountId, now, transaction);
      await new SequelizeAuditLog(this.sequelize, transaction).append(audit.record(accountId));
      return { accountId, revokedKeyIds };
    });
  }

  /** A new account; with `invitation`, only if that invitation is consumed in the same transaction. */
  async create(
    input: NewAccount,
    invitation?: { tokenHash: Buffer; now: Date },
    record?: RecordOf,
  ): Promise<Account | undefined> {
    try {
      return await this.sequelize.transaction(async (transaction) => {
        if (
          invitation &&
          (await consume(this.sequelize, invitation.tokenHash, 'invitation', invitation.now, transaction)) === undefined
        )
          return undefined;
        const [row] = await this.sequelize.query<AccountRow>(
          `INSERT INTO gateway.accounts (id, email, name, plan, password_hash, email_verified_at)
           VALUES (:id, :email, :name, :plan, :passwordHash, CASE WHEN :emailVerified THEN now() END)
           RETURNING id, email, name, plan, password_hash`,
          {
            replacements: { id: randomUUID(), ...input, emailVerified: input.emailVerified === true },
            type: QueryTypes.SELECT,
            transaction,
          },
        );
        const account = toAccount(row as AccountRow);
        if (record) await new SequelizeAuditLog(this.sequelize, transaction).append(record(account.id));
        return account;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('account.emailTaken', {}, { cause: err });
      throw err;
    }
  }

  /**
   * Consumes a reset link, sets the password and ends every session, in one
   * transaction; revokes the keys and unlinks the identities when asked, and
   * always on an address not verified yet: the reset is its first proof.
   */
  async resetPassword(
    tokenHash: Buffer,
    passwordHash: string,
    now: Date,
    options: { revokeKeys: boolean; unlinkIdentities: boolean; record: RecordOf; removal: Removals['audit'] },
  ): Promise<Proven | undefined> {
    return this.sequelize.transaction(async (transaction) => {
      const accountId = await consume(this.sequelize, tokenHash, 'password-reset', now, transaction);
      if (!accountId) return undefined;
      const [row] = await this.sequelize.query<{ first_proof: boolean }>(
        `SELECT email_verified_at IS NULL AS first_proof FROM gateway.accounts WHERE id = :accountId FOR UPDATE`,
        { replacements: { accountId }, type: QueryTypes.SELECT, transaction },
      );
      await this.sequelize.query(
        `UPDATE gateway.accounts SET password_hash = :passwordHash, email_verified_at = coalesce(email_verified_at, :now), updated_at = now() WHERE id = :accountId`,
        { replacements: { passwordHash, now, accountId }, transaction },
      );
      const first = row?.first_proof === true;
      const removals = {
        keepSessionId: null,
        revokeKeys: first || options.revokeKeys,
        unlinkIdentities: first || options.unlinkIdentities,
        audit: options.removal,
      };
      const revokedKeyIds = await removeCredentials(this.sequelize, accountId, removals, transaction);
      await endAccountLinks(this.sequelize, accountId, now, transaction);
      await new SequelizeAuditLog(this.sequelize, transaction).append(options.record(accountId));
      return { accountId, revokedKeyIds };
    });
  }

  /** A signed-in person's new password: every other session ends, the keys too if asked; the keys revoked. */
  async changePassword(
    accountId: string,
    passwordHash: string,
    options: { keepSessionId: string; revokeKeys: boolean; record: AuditEvent; removal: Removals['audit'] },
  ): Promise<string[]> {
    return this.sequelize.transaction(async (transaction) => {
      await this.sequelize.query(
        `UPDATE gateway.accounts SET password_hash = :passwordHash, updated_at = now() WHERE id = :accountId`,
        {
          replacements: { passwordHash, accountId },
          transaction,
        },
      );
      const removals = {
        keepSessionId: options.keepSessionId,
        revokeKeys: options.revokeKeys,
        unlinkIdentities: false,
        audit: options.removal,
      };
      const revoked = await removeCredentials(this.sequelize, accountId, removals, transaction);
      await new SequelizeAuditLog(this.sequelize, transaction).append(options.record);
      return revoked;
    });
  }

  async findByIdentity(issuer: string, subject: string): Promise<Account | undefined> {
    const [row] = await this.sequelize.query<AccountRow>(
      `SELECT a.id, a.email, a.name, a.plan, a.password_hash
         FROM gateway.oidc_identities i JOIN gateway.accounts a ON a.id = i.account_id
        WHERE i.issuer = :issuer AND i.subject = :subject AND a.email_verified_at IS NOT NULL`,
      { replacements: { issuer, subject }, type: QueryTypes.SELECT },
    );
    return row ? toAccount(row) : undefined;
  }

  /** Links (issuer, subject) to the account; false when it is linked to another account already. */
  async linkIdentity(issuer: string, subject: string, accountId: string, record?: AuditEvent): Promise<boolean> {
    return this.sequelize.transaction(async (transaction) => {
      const [row] = await this.sequelize.query<{ account_id: string }>(
        `INSERT INTO gateway.oidc_identities (issuer, subject, account_id) VALUES (:issuer, :subject, :accountId)
         ON CONFLICT (issuer, subject) DO UPDATE SET issuer = EXCLUDED.issuer RETURNING account_id`,
        { replacements: { issuer, subject, accountId }, type: QueryTypes.SELECT, transaction },
      );
      const linked = row?.account_id === accountId;
      if (linked && record) await new SequelizeAuditLog(this.sequelize, transaction).append(record);
      return linked;
    });
  }
}

/**
 * Marks an unused, unexpired link of `purpose` used; its account ('' for an
 * invitation), or undefined when there is no such live link. One UPDATE: two
 * concurrent redemptions cannot both succeed.
 */
export async function consume(
  sequelize: Sequelize,
  tokenHash: Buffer,
  purpose: LinkPurpose,
  now: Date,
  transaction?: Transaction,
): Promise<string | undefined> {
  const [row] = await sequelize.query<{ account_id: string | null }>(
    `UPDATE gateway.one_time_links SET used_at = :now
      WHERE token_hash = decode(:hash, 'hex') AND purpose = :purpose AND used_at IS NULL AND expires_at > :now
      RETURNING account_id`,
    { replacements: { hash: tokenHash.toString('hex'), purpose, now }, type: QueryTypes.SELECT, transaction },
  );
  return row ? (row.account_id ?? '') : undefined;
}
