import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { ConflictError, isUniqueViolation, type Plan } from '@skills/common';
import type { Account } from '../domain/account';
import type { AuditEvent } from '../domain/audit';
import type { CredentialStore, LinkPurpose, NewAccount, RecordOf } from '../domain/credentials';
import { SequelizeAuditLog } from './audit.repository';

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

  async findByEmail(email: string): Promise<{ account: Account; passwordHash: string | null; emailVerified: boolean } | undefined> {
    const [row] = await this.sequelize.query<AccountRow>(
      `SELECT id, email, name, plan, password_hash, email_verified_at IS NOT NULL AS email_verified FROM gateway.accounts WHERE lower(email) = lower(:email)`,
      { replacements: { email }, type: QueryTypes.SELECT },
    );
    return row ? { account: toAccount(row), passwordHash: row.password_hash, emailVerified: row.email_verified } : undefined;
  }

  async emailVerified(accountId: string): Promise<boolean> {
    const [row] = await this.sequelize.query<{ verified: boolean }>(
      `SELECT email_verified_at IS NOT NULL AS verified FROM gateway.accounts WHERE id = :accountId`,
      { replacements: { accountId }, type: QueryTypes.SELECT },
    );
    return row?.verified === true;
  }

  /** Consumes a verification link and marks its account's address verified; the account id, or undefined. */
  async verifyEmail(tokenHash: Buffer, now: Date): Promise<string | undefined> {
    return this.sequelize.transaction(async (transaction) => {
      const link = await consumeLink(this.sequelize, tokenHash, 'email-verification', now, transaction);
      if (!link?.accountId) return undefined;
      const { accountId } = link;
      await this.sequelize.query(`UPDATE gateway.accounts SET email_verified_at = coalesce(email_verified_at, :now) WHERE id = :accountId`, {
        replacements: { now, accountId },
        transaction,
      });
      // A sign-up over an unverified account: the mailbox's owner chose this password; whoever signed up before is out.
      if (link.passwordHash !== null) await this.setPassword(accountId, link.passwordHash, { keepSessionId: null, revokeKeys: true }, transaction);
      return accountId;
    });
  }

  /** A new account; with `invitation`, only if that invitation is consumed in the same transaction. */
  async create(input: NewAccount, invitation?: { tokenHash: Buffer; now: Date }, record?: RecordOf): Promise<Account | undefined> {
    try {
      return await this.sequelize.transaction(async (transaction) => {
        if (invitation && (await consume(this.sequelize, invitation.tokenHash, 'invitation', invitation.now, transaction)) === undefined) return undefined;
        const [row] = await this.sequelize.query<AccountRow>(
          `INSERT INTO gateway.accounts (id, email, name, plan, password_hash, email_verified_at)
           VALUES (:id, :email, :name, :plan, :passwordHash, CASE WHEN :emailVerified THEN now() END)
           RETURNING id, email, name, plan, password_hash`,
          { replacements: { id: randomUUID(), ...input, emailVerified: input.emailVerified === true }, type: QueryTypes.SELECT, transaction },
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
   * transaction; with `revokeKeys`, revokes the account's API keys too.
   * The account id and the keys revoked, or undefined for a link that cannot work.
   */
  async resetPassword(
    tokenHash: Buffer,
    passwordHash: string,
    now: Date,
    options: { revokeKeys: boolean; record?: RecordOf },
  ): Promise<{ accountId: string; revokedKeyIds: string[] } | undefined> {
    return this.sequelize.transaction(async (transaction) => {
      const accountId = await consume(this.sequelize, tokenHash, 'password-reset', now, transaction);
      if (!accountId) return undefined;
      const revokedKeyIds = await this.setPassword(accountId, passwordHash, { keepSessionId: null, revokeKeys: options.revokeKeys }, transaction);
      if (options.record) await new SequelizeAuditLog(this.sequelize, transaction).append(options.record(accountId));
      return { accountId, revokedKeyIds };
    });
  }

  /** A signed-in person's new password: every other session ends, the keys too if asked; the keys revoked. */
  async changePassword(
    accountId: string,
    passwordHash: string,
    options: { keepSessionId: string; revokeKeys: boolean; record: AuditEvent },
  ): Promise<string[]> {
    return this.sequelize.transaction(async (transaction) => {
      const revoked = await this.setPassword(accountId, passwordHash, options, transaction);
      await new SequelizeAuditLog(this.sequelize, transaction).append(options.record);
      return revoked;
    });
  }

  /** The password, the sessions but `keepSessionId`, and with `revokeKeys` the keys still active; returns the keys revoked. */
  private async setPassword(
    accountId: string,
    passwordHash: string,
    options: { keepSessionId: string | null; revokeKeys: boolean },
    transaction: Transaction,
  ): Promise<string[]> {
    await this.sequelize.query(`UPDATE gateway.accounts SET password_hash = :passwordHash, updated_at = now() WHERE id = :accountId`, {
      replacements: { passwordHash, accountId },
      transaction,
    });
    await this.sequelize.query(`DELETE FROM gateway.sessions WHERE account_id = :accountId AND (:keep::uuid IS NULL OR id <> :keep::uuid)`, {
      replacements: { accountId, keep: options.keepSessionId },
      transaction,
    });
    if (!options.revokeKeys) return [];
    const rows = await this.sequelize.query<{ id: string }>(
      `UPDATE gateway.api_keys SET revoked_at = now() WHERE account_id = :accountId AND revoked_at IS NULL RETURNING id`,
      { replacements: { accountId }, type: QueryTypes.SELECT, transaction },
    );
    return rows.map((r) => r.id);
  }

  async findByIdentity(issuer: string, subject: string): Promise<Account | undefined> {
    const [row] = await this.sequelize.query<AccountRow>(
      `SELECT a.id, a.email, a.name, a.plan, a.password_hash
         FROM gateway.oidc_identities i JOIN gateway.accounts a ON a.id = i.account_id
        WHERE i.issuer = :issuer AND i.subject = :subject`,
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

/** A link consumed: its account ('' for an invitation) and the password a sign-up chose, when it carries one. */
export interface ConsumedLink {
  accountId: string;
  passwordHash: string | null;
}

/**
 * Marks an unused, unexpired link of `purpose` used; what it carried, or
 * undefined when there is no such live link. One UPDATE: two concurrent
 * redemptions cannot both succeed.
 */
export async function consumeLink(
  sequelize: Sequelize,
  tokenHash: Buffer,
  purpose: LinkPurpose,
  now: Date,
  transaction?: Transaction,
): Promise<ConsumedLink | undefined> {
  const [row] = await sequelize.query<{ account_id: string | null; password_hash: string | null }>(
    `UPDATE gateway.one_time_links SET used_at = :now
      WHERE token_hash = decode(:hash, 'hex') AND purpose = :purpose AND used_at IS NULL AND expires_at > :now
      RETURNING account_id, password_hash`,
    { replacements: { hash: tokenHash.toString('hex'), purpose, now }, type: QueryTypes.SELECT, transaction },
  );
  return row ? { accountId: row.account_id ?? '', passwordHash: row.password_hash } : undefined;
}

/** The account of a consumed link ('' for an invitation), or undefined when there is no such live link. */
export async function consume(
  sequelize: Sequelize,
  tokenHash: Buffer,
  purpose: LinkPurpose,
  now: Date,
  transaction?: Transaction,
): Promise<string | undefined> {
  return (await consumeLink(sequelize, tokenHash, purpose, now, transaction))?.accountId;
}
