/**
 * Reindex jobs in Postgres (catalog.reindex_jobs), so that any replica can
 * start, refuse or report one. The replica running a job renews its
 * heartbeat with the progress; a running job whose heartbeat is older than
 * `staleAfterMs` belonged to a replica that died, and is marked failed
 * before anything reads or starts a job. Times are the database's, so the
 * replicas' clocks never meet.
 */
import { QueryTypes, UniqueConstraintError, type Sequelize } from 'sequelize';
import { ConflictError } from '@skills/common';
import type { ReindexJobView, ReindexStatus } from './reindex.job';

/** What a failed job says when its replica stopped renewing it. */
export const ABANDONED_REASON = 'abandoned: the replica running it stopped';

interface JobRow {
  id: string;
  status: ReindexStatus;
  indexed: string | number;
  total: string | number | null;
  started_at: Date | string;
  finished_at: Date | string | null;
  error: string | null;
}

const COLUMNS = 'id, status, indexed, total, started_at, finished_at, error';

export class ReindexJobRepository {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly staleAfterMs: number,
  ) {}

  /** Records a new running job, or throws ConflictError naming the one already running. */
  async start(id: string): Promise<ReindexJobView> {
    await this.failAbandoned();
    try {
      const rows = await this.sequelize.query<JobRow>(
        `INSERT INTO catalog.reindex_jobs (id, status, started_at) VALUES ($1, 'running', now()) RETURNING ${COLUMNS}`,
        { bind: [id], type: QueryTypes.SELECT },
      );
      return toView(rows[0]!);
    } catch (err) {
      if (!(err instanceof UniqueConstraintError)) throw err;
      const running = await this.sequelize.query<{ id: string }>(
        "SELECT id FROM catalog.reindex_jobs WHERE status = 'running'",
        {
          type: QueryTypes.SELECT,
        },
      );
      throw new ConflictError('reindex.alreadyRunning', { id: running[0]?.id ?? 'unknown' }, { cause: err });
    }
  }

  /** Progress of a running job; also its heartbeat. */
  async progress(id: string, indexed: number, total: number | undefined): Promise<void> {
    await this.sequelize.query(
      "UPDATE catalog.reindex_jobs SET indexed = $2, total = $3, heartbeat_at = now() WHERE id = $1 AND status = 'running'",
      {
        bind: [id, indexed, total ?? null],
      },
    );
  }

  async finish(
    id: string,
    outcome: { status: Exclude<ReindexStatus, 'running'>; indexed: number; total?: number; error?: string },
  ): Promise<void> {
    await this.sequelize.query(
      'UPDATE catalog.reindex_jobs SET status = $2, indexed = $3, total = $4, error = $5, finished_at = now(), heartbeat_at = now() WHERE id = $1',
      { bind: [id, outcome.status, outcome.indexed, outcome.total ?? null, outcome.error ?? null] },
    );
  }

  async get(id: string): Promise<ReindexJobView | undefined> {
    await this.failAbandoned();
    const rows = await this.sequelize.query<JobRow>(`SELECT ${COLUMNS} FROM catalog.reindex_jobs WHERE id = $1`, {
      bind: [id],
      type: QueryTypes.SELECT,
    });
    return rows[0] ? toView(rows[0]) : undefined;
  }

  /** A running job nobody renewed: it finished, as far as anyone can tell, when its last heartbeat did. */
  private async failAbandoned(): Promise<void> {
    await this.sequelize.query(
      `UPDATE catalog.reindex_jobs SET status = 'failed', error = $2, finished_at = heartbeat_at
        WHERE status = 'running' AND heartbeat_at < now() - make_interval(secs => $1)`,
      { bind: [this.staleAfterMs / 1000, ABANDONED_REASON] },
    );
  }
}

function toView(row: JobRow): ReindexJobView {
  return {
    id: row.id,
    status: row.status,
    indexed: Number(row.indexed),
    ...(row.total === null ? {} : { total: Number(row.total) }),
    startedAt: new Date(row.started_at).toISOString(),
    ...(row.finished_at === null ? {} : { finishedAt: new Date(row.finished_at).toISOString() }),
    ...(row.error === null ? {} : { error: row.error }),
  };
}
