import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { ConflictError, isUniqueViolation } from '@skills/common';
import type { ScannerRepository, ScannerSummary, StoredScanner } from '../domain/scanner/scanner';

interface ScannerRow {
  id: string;
  name: string;
  created_at: Date;
  revoked_at: Date | null;
}

const SUMMARY = 'id, name, created_at, revoked_at';

function toSummary(row: ScannerRow): ScannerSummary {
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    revokedAt: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
  };
}

/** `gateway.scanners` over Sequelize; hashes travel as hex and are decoded in SQL, as for API keys. */
export class SequelizeScannerRepository implements ScannerRepository {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly transaction?: Transaction,
  ) {}

  async insert(name: string, tokenHash: Buffer): Promise<ScannerSummary> {
    try {
      const [row] = await this.sequelize.query<ScannerRow>(
        `INSERT INTO gateway.scanners (id, name, token_hash) VALUES (:id, :name, decode(:hash, 'hex')) RETURNING ${SUMMARY}`,
        {
          replacements: { id: randomUUID(), name, hash: tokenHash.toString('hex') },
          type: QueryTypes.SELECT,
          transaction: this.transaction,
        },
      );
      return toSummary(row as ScannerRow);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('scanner.nameTaken', { name }, { cause: err });
      throw err;
    }
  }

  async list(): Promise<ScannerSummary[]> {
    const rows = await this.sequelize.query<ScannerRow>(
      `SELECT ${SUMMARY} FROM gateway.scanners ORDER BY created_at, id`,
      {
        type: QueryTypes.SELECT,
        transaction: this.transaction,
      },
    );
    return rows.map(toSummary);
  }

  async findByHash(tokenHash: Buffer): Promise<StoredScanner | undefined> {
    const [row] = await this.sequelize.query<ScannerRow & { token_hash: Buffer }>(
      `SELECT ${SUMMARY}, token_hash FROM gateway.scanners WHERE token_hash = decode(:hash, 'hex')`,
      { replacements: { hash: tokenHash.toString('hex') }, type: QueryTypes.SELECT, transaction: this.transaction },
    );
    if (!row) return undefined;
    return {
      scannerId: row.id,
      name: row.name,
      tokenHash: Buffer.from(row.token_hash),
      revoked: row.revoked_at !== null,
    };
  }

  async revoke(id: string): Promise<ScannerSummary | undefined> {
    const [row] = await this.sequelize.query<ScannerRow>(
      `UPDATE gateway.scanners SET revoked_at = COALESCE(revoked_at, now()) WHERE id = :id RETURNING ${SUMMARY}`,
      { replacements: { id }, type: QueryTypes.SELECT, transaction: this.transaction },
    );
    return row ? toSummary(row) : undefined;
  }
}
