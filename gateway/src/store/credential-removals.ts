/**
 * What a change of credentials removes besides the password (sessions,
 * API keys, linked identities, the account's other one-time links), inside
 * the change's transaction, each removal with its own audit record: the
 * trail says which session ended and which key was revoked, not "some".
 */
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Removal, Removals } from '../domain/sign-in/credentials';
import { SequelizeAuditLog } from './audit.repository';

/** The sessions (all but `keepSessionId`), and as asked the active keys and the linked identities; returns the keys revoked. */
export async function removeCredentials(
  sequelize: Sequelize,
  accountId: string,
  removals: Removals,
  transaction: Transaction,
): Promise<string[]> {
  const found: Removal[] = [];
  const sessions = await sequelize.query<{ id: string }>(
    `DELETE FROM gateway.sessions WHERE account_id = :accountId AND (:keep::uuid IS NULL OR id <> :keep::uuid) RETURNING id`,
    { replacements: { accountId, keep: removals.keepSessionId }, type: QueryTypes.SELECT, transaction },
  );
  found.push(...sessions.map((s): Removal => ({ action: 'auth.session_end', accountId, target: s.id })));
  let keys: { id: string; prefix: string; name: string | null }[] = [];
  if (removals.revokeKeys) {
    keys = await sequelize.query(
      `UPDATE gateway.api_keys SET revoked_at = now() WHERE account_id = :accountId AND revoked_at IS NULL RETURNING id, prefix, name`,
      { replacements: { accountId }, type: QueryTypes.SELECT, transaction },
    );
    found.push(
      ...keys.map((k): Removal => ({
        action: 'api_key.revoke',
        accountId,
        target: k.id,
        details: { prefix: k.prefix, name: k.name },
      })),
    );
  }
  if (removals.unlinkIdentities) {
    const identities = await sequelize.query<{ issuer: string; subject: string }>(
      `DELETE FROM gateway.oidc_identities WHERE account_id = :accountId RETURNING issuer, subject`,
      { replacements: { accountId }, type: QueryTypes.SELECT, transaction },
    );
    found.push(
      ...identities.map((i): Removal => ({
        action: 'auth.oidc_unlink',
        accountId,
        target: i.issuer,
        details: { subject: i.subject },
      })),
    );
  }
  const audit = new SequelizeAuditLog(sequelize, transaction);
  for (const removal of found) await audit.append(removals.audit(removal));
  return keys.map((k) => k.id);
}

/** Uses up the account's sign-in, reset and verification links: one issued before a proof of the address stops working. */
export async function endAccountLinks(
  sequelize: Sequelize,
  accountId: string,
  now: Date,
  transaction: Transaction,
): Promise<void> {
  await sequelize.query(
    `UPDATE gateway.one_time_links SET used_at = :now
      WHERE account_id = :accountId AND used_at IS NULL AND purpose IN ('sign-in', 'password-reset', 'email-verification')`,
    { replacements: { accountId, now }, transaction },
  );
}
