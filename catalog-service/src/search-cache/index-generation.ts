import type { Sequelize } from 'sequelize';

/**
 * catalog.index_generation: one counter every replica shares. Whoever
 * changes the read model bumps it after the change committed; every replica
 * polls it and empties its search cache when it moved.
 */
export interface IndexGeneration {
  read(): Promise<number>;
  /** returns the generation after the bump */
  bump(): Promise<number>;
}

/**
 * A generation the engine itself moves, synchronously, whenever its answers
 * may change: the memory index of this replica, which also follows the other
 * replicas' writes. Nothing to poll or bump; cached answers are keyed by it.
 */
export interface LocalGeneration {
  current(): number;
}

export class SqlIndexGeneration implements IndexGeneration {
  constructor(private readonly sequelize: Sequelize) {}

  async read(): Promise<number> {
    const [rows] = await this.sequelize.query('SELECT generation FROM catalog.index_generation WHERE id = 1');
    return Number((rows as Array<{ generation: string | number }>)[0]?.generation ?? 0);
  }

  async bump(): Promise<number> {
    const [rows] = await this.sequelize.query(
      'UPDATE catalog.index_generation SET generation = generation + 1 WHERE id = 1 RETURNING generation',
    );
    return Number((rows as Array<{ generation: string | number }>)[0]?.generation ?? 0);
  }
}
