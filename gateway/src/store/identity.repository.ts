import { QueryTypes, type Sequelize } from 'sequelize';
import type { AuditEvent } from '../domain/audit/audit';
import type { IdentityStore, LinkedIdentity } from '../domain/sign-in/credentials';
import { SequelizeAuditLog } from './audit.repository';

interface IdentityRow {
  id: string;
  issuer: string;
  subject: string;
  created_at: Date;
}

const toIdentity = (row: IdentityRow): LinkedIdentity => ({
  id: row.id,
  issuer: row.issuer,
  subject: row.subject,
  createdAt: new Date(row.created_at).toISOString(),
});

/** The provider identities linked to an account (`gateway.oidc_identities`), as its owner lists and removes them. */
export class IdentityRepository implements IdentityStore {
  constructor(private readonly sequelize: Sequelize) {}

  async list(accountId: string): Promise<LinkedIdentity[]> {
    const rows = await this.sequelize.query<IdentityRow>(
      `SELECT id, issuer, subject, created_at FROM gateway.oidc_identities WHERE account_id = :accountId ORDER BY created_at, id`,
      { replacements: { accountId }, type: QueryTypes.SELECT },
    );
    return rows.map(toIdentity);
  }

  /**
   * With the account's row held, so two removals at once cannot each see the
   * other identity as the way in that remains.
   */
  async unlink(
    accountId: string,
    identityId: string,
    record: (identity: LinkedIdentity) => AuditEvent,
  ): Promise<'unlinked' | 'notFound' | 'lastSignIn'> {
    return this.sequelize.transaction(async (transaction) => {
      const [account] = await this.sequelize.query<{ has_password: boolean }>(
        `SELECT password_hash IS NOT NULL AS has_password FROM gateway.accounts WHERE id = :accountId FOR UPDATE`,
        { replacements: { accountId }, type: QueryTypes.SELECT, transaction },
      );
      const identities = await this.sequelize.query<IdentityRow>(
        `SELECT id, issuer, subject, created_at FROM gateway.oidc_identities WHERE account_id = :accountId`,
        { replacements: { accountId }, type: QueryTypes.SELECT, transaction },
      );
      const found = identities.find((i) => i.id === identityId);
      if (!account || !found) return 'notFound';
      if (!account.has_password && identities.length === 1) return 'lastSignIn';
      await this.sequelize.query(
        `DELETE FROM gateway.oidc_identities WHERE id = :identityId AND account_id = :accountId`,
        {
          replacements: { identityId, accountId },
          transaction,
        },
      );
      await new SequelizeAuditLog(this.sequelize, transaction).append(record(toIdentity(found)));
      return 'unlinked';
    });
  }
}
