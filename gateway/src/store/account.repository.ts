import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { ConflictError, isUniqueViolation, type Plan } from '@skills/common';
import type { Account, AccountRepository } from '../domain/accounts/account';

interface AccountRow {
  id: string;
  email: string;
  name: string | null;
  plan: Plan;
}

const COLUMNS = 'id, email, name, plan';

function toAccount(row: AccountRow): Account {
  return { id: row.id, email: row.email, name: row.name, plan: row.plan };
}

/** `gateway.accounts` over Sequelize; unique violations become ConflictError here. */
export class SequelizeAccountRepository implements AccountRepository {
  /** `transaction`: every query runs in it (GatewayStore.transaction), else on the pool */
  constructor(
    private readonly sequelize: Sequelize,
    private readonly transaction?: Transaction,
  ) {}

  async create(input: { email: string; name: string | null; plan: Plan }): Promise<Account> {
    try {
      const [row] = await this.sequelize.query<AccountRow>(
        // The operator who makes an account vouches for its address.
        `INSERT INTO gateway.accounts (id, email, name, plan, email_verified_at) VALUES (:id, :email, :name, :plan, now()) RETURNING ${COLUMNS}`,
        { transaction: this.transaction, replacements: { id: randomUUID(), ...input }, type: QueryTypes.SELECT },
      );
      return toAccount(row as AccountRow);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('account.emailTaken', {}, { cause: err });
      throw err;
    }
  }

  async findById(id: string): Promise<Account | undefined> {
    const [row] = await this.sequelize.query<AccountRow>(`SELECT ${COLUMNS} FROM gateway.accounts WHERE id = :id`, {
      transaction: this.transaction,
      replacements: { id },
      type: QueryTypes.SELECT,
    });
    return row ? toAccount(row) : undefined;
  }

  async findByIds(ids: readonly string[]): Promise<Account[]> {
    if (ids.length === 0) return [];
    const rows = await this.sequelize.query<AccountRow>(
      `SELECT ${COLUMNS} FROM gateway.accounts WHERE id = ANY(ARRAY[:ids]::uuid[])`,
      {
        transaction: this.transaction,
        replacements: { ids: [...ids] },
        type: QueryTypes.SELECT,
      },
    );
    return rows.map(toAccount);
  }

  async updatePlan(id: string, plan: Plan): Promise<Account | undefined> {
    const [row] = await this.sequelize.query<AccountRow>(
      `UPDATE gateway.accounts SET plan = :plan, updated_at = now() WHERE id = :id RETURNING ${COLUMNS}`,
      {
        transaction: this.transaction,
        replacements: { id, plan },
        type: QueryTypes.SELECT,
      },
    );
    return row ? toAccount(row) : undefined;
  }

  async lockForKeyChange(id: string): Promise<boolean> {
    const rows = await this.sequelize.query(`SELECT 1 FROM gateway.accounts WHERE id = :id FOR UPDATE`, {
      transaction: this.transaction,
      replacements: { id },
      type: QueryTypes.SELECT,
    });
    return rows.length > 0;
  }

  async exists(id: string): Promise<boolean> {
    const rows = await this.sequelize.query(`SELECT 1 FROM gateway.accounts WHERE id = :id`, {
      transaction: this.transaction,
      replacements: { id },
      type: QueryTypes.SELECT,
    });
    return rows.length > 0;
  }

  async ping(): Promise<void> {
    await this.sequelize.query('SELECT 1', { type: QueryTypes.SELECT, transaction: this.transaction });
  }
}
