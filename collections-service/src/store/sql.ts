import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';

/**
 * Runs SQL on the pool or inside one transaction. Every repository query
 * goes through here, so none can forget the `transaction` option (on PGlite
 * a query outside the open transaction would wait for it forever).
 */
export class Sql {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly transaction?: Transaction,
  ) {}

  /** Rows of a SELECT or of a statement with RETURNING; `$1`.. are bind parameters. */
  rows<T extends object>(sql: string, bind: unknown[] = []): Promise<T[]> {
    return this.sequelize.query<T>(sql, { type: QueryTypes.SELECT, bind, transaction: this.transaction });
  }

  async one<T extends object>(sql: string, bind: unknown[] = []): Promise<T | null> {
    const rows = await this.rows<T>(sql, bind);
    return rows[0] ?? null;
  }

  /** A statement without result rows; returns the affected row count. */
  async run(sql: string, bind: unknown[] = []): Promise<number> {
    const [, meta] = await this.sequelize.query(sql, { bind, transaction: this.transaction });
    // Sequelize hands an INSERT's row count as the metadata itself, any other statement's in pg's result
    return typeof meta === 'number' ? meta : ((meta as { rowCount?: number } | undefined)?.rowCount ?? 0);
  }
}

export const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();
